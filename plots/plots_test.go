package plots

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/tensors"
)

type recorder struct {
	mu   sync.Mutex
	msgs []string
	data []map[string]any
	ids  []any
}

func (r *recorder) Send(msgType string, content map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, msgType)
	d, _ := content["data"].(map[string]any)
	r.data = append(r.data, d)
	tr, _ := content["transient"].(map[string]any)
	r.ids = append(r.ids, tr["display_id"])
}

func withSink(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{}
	host.ForTest(t, host.Host{Display: r})
	return r
}

func decodePNG(t *testing.T, b []byte) (w, h int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

func mnistLike(n int) *tensors.Tensor {
	v := make([]float32, n*784)
	for i := range v {
		v[i] = float32((i*7)%255) / 255
	}
	return tensors.New(v, n, 784)
}

func TestEveryOneCallFigureRendersAsPNGAndSVG(t *testing.T) {
	tests := []struct {
		name string
		fig  func() *Figure
	}{
		{"line of several series", func() *Figure {
			return Line([]float64{3, 2, 1}, []int{1, 2, 3}, []float32{2, 2, 2}).Legend("a", "b", "c")
		}},
		{"line against x", func() *Figure { return LineXY([]int{10, 20, 30}, []float64{1, 4, 9}) }},
		{"line of a tensor", func() *Figure { return Line(tensors.New([]float32{1, 2, 3}, 3, 1)) }},
		{"log y", func() *Figure { return Line([]float64{1, 10, 100, 1000}).LogY() }},
		{"scatter", func() *Figure { return Scatter([]float64{1, 2, 3}, []int64{3, 1, 2}) }},
		{"histogram", func() *Figure { return Hist(tensors.New([]float32{1, 2, 2, 3, 3, 3}, 6), 3) }},
		{"bar", func() *Figure { return Bar([]int{5, 3, 8}, "a", "b", "c") }},
		{"heat map", func() *Figure { return Heatmap([][]float64{{1, 2}, {3, 4}}) }},
		{"heat map of a tensor", func() *Figure { return Heatmap(tensors.New([]float32{1, 2, 3, 4, 5, 6}, 2, 3)) }},
		{"confusion", func() *Figure { return Confusion([]int{0, 1, 1, 2}, []int{0, 1, 2, 2}, 3) }},
		{"image grid [N,784]", func() *Figure { return Images(mnistLike(10), 5).Captions("7 → 1", "2") }},
		{"image grid [N,1,H,W]", func() *Figure { return Images(mnistLike(4).Reshape(4, 1, 28, 28), 0) }},
		{"image grid rgb", func() *Figure { return Images(tensors.New(make([]float32, 2*3*4*4), 2, 3, 4, 4), 2) }},
		{"image grid of slices", func() *Figure { return Images([][]float64{make([]float64, 25), make([]float64, 25)}, 2) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.fig().Title("t").XLabel("x").YLabel("y")
			b, err := f.Render("png")
			if err != nil {
				t.Fatal(err)
			}
			if w, _ := decodePNG(t, b); w < 100 {
				t.Errorf("PNG %d pixels wide, want a real figure", w)
			}
			svg, err := f.Render("svg")
			if err != nil || !bytes.Contains(svg, []byte("<svg")) {
				t.Errorf("SVG: err %v, %d bytes", err, len(svg))
			}
		})
	}
}

func TestSeriesFromSlicesOfAnyNumberTypeAndTensors(t *testing.T) {
	type losses []float32 // a named slice type, as a cell may declare
	want := []float64{1, 2, 3}
	for _, v := range []any{[]float64{1, 2, 3}, []float32{1, 2, 3}, []int{1, 2, 3}, []int64{1, 2, 3}, []uint8{1, 2, 3},
		losses{1, 2, 3}, [3]int{1, 2, 3}, tensors.New([]float32{1, 2, 3}, 3), tensors.FromInt64([]int64{1, 2, 3}, 1, 3)} {
		got := floats("Line", "series 0", v)
		if len(got) != 3 || got[0] != want[0] || got[2] != want[2] {
			t.Errorf("%T: %v, want %v", v, got, want)
		}
	}
}

func TestBadInputPanicsWithAMessageThatSaysWhatToPass(t *testing.T) {
	tests := []struct {
		name string
		call func()
		want string
	}{
		{"string series", func() { Line("loss") }, "series 0 is a string; pass []float64"},
		{"no series", func() { Line() }, "no series"},
		{"2-D tensor", func() { Line(tensors.New(make([]float32, 6), 2, 3)) }, "shape [2 3]; pass a 1-D tensor"},
		{"x and y lengths", func() { LineXY([]int{1, 2}, []int{1}) }, "2 x values but 1 values in series 0"},
		{"scatter lengths", func() { Scatter([]int{1, 2}, []int{1}) }, "2 x values but 1 y values"},
		{"bar labels", func() { Bar([]int{1, 2}, "a") }, "1 labels for 2 values"},
		{"ragged matrix", func() { Heatmap([][]int{{1, 2}, {3}}) }, "row 1 has 1 values but row 0 has 2"},
		{"confusion label", func() { Confusion([]int{0, 5}, []int{0, 1}, 3) }, "sample 1 has predicted 5"},
		{"not images", func() { Images(tensors.New(make([]float32, 32), 2, 2, 2, 2, 2), 2) }, "shape [2 2 2 2 2] is not images"},
		{"legend names", func() { Line([]int{1}).Legend("a", "b") }, "2 names for 1 series"},
		{"size", func() { Line([]int{1}).Size(0, 3) }, "width and height are inches"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tc.want) {
					t.Errorf("panic %v, want one containing %q", r, tc.want)
				}
			}()
			tc.call()
		})
	}
}

func TestLogAxisOverNonPositiveValuesIsAnError(t *testing.T) {
	_, err := Line([]float64{0, 1, 2}).LogY().Render("png")
	if err == nil || !strings.Contains(err.Error(), "y axis is logarithmic but its smallest value is 0") {
		t.Fatalf("err = %v", err)
	}
}

func TestSizeSetsThePixelSize(t *testing.T) {
	b, err := Line([]int{1, 2}).Size(5, 2.5).Render("png")
	if err != nil {
		t.Fatal(err)
	}
	if w, h := decodePNG(t, b); w != 480 || h != 240 {
		t.Errorf("%d×%d pixels, want 480×240 (5×2.5 in at 96 dpi)", w, h)
	}
}

func TestSaveWritesTheFormatOfTheExtension(t *testing.T) {
	dir := t.TempDir()
	f := Line([]int{1, 3, 2}).Title("saved")
	for ext, magic := range map[string]string{"png": "\x89PNG", "svg": "<?xml", "pdf": "%PDF"} {
		path := filepath.Join(dir, "fig."+ext)
		if err := f.Save(path); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if !bytes.HasPrefix(b, []byte(magic)) {
			t.Errorf("%s starts %q, want %q", path, b[:min(8, len(b))], magic)
		}
	}
	for _, bad := range []string{filepath.Join(dir, "noext"), filepath.Join(dir, "x.bmp"), filepath.Join(dir, "missing", "x.png")} {
		if err := f.Save(bad); err == nil || !strings.Contains(err.Error(), "plots: save") {
			t.Errorf("Save(%s) = %v, want an error naming the file", bad, err)
		}
	}
}

func TestAFigureShowsAsPNGByDefaultAndSVGOnRequest(t *testing.T) {
	f := Bar([]int{1, 2})
	b := f.MIMEBundle()
	if _, ok := b["image/png"]; !ok || b["image/svg+xml"] != nil || b["text/plain"] != `<figure "">` {
		t.Fatalf("default bundle has %v", keys(b))
	}
	b = f.Title("bars").AsSVG().MIMEBundle()
	if svg, _ := b["image/svg+xml"].(string); !strings.Contains(svg, "<svg") || b["image/png"] != nil {
		t.Fatalf("AsSVG bundle has %v", keys(b))
	}
	r := withSink(t)
	if err := Line([]int{1, 2}).Show(); err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.StdEncoding.DecodeString(r.data[0]["image/png"].(string))
	decodePNG(t, raw)
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestAnImageGridKeepsItsImagesSquare(t *testing.T) {
	b, err := Images(mnistLike(16), 8).Render("png")
	if err != nil {
		t.Fatal(err)
	}
	w, h := decodePNG(t, b)
	if want := w / 4; h < want-6 || h > want+6 {
		t.Errorf("2 rows of 8 images: %d×%d pixels, want a height near %d (square tiles)", w, h, want)
	}
	b, _ = Images(mnistLike(16), 8).Size(4, 4).Render("png")
	if w, h := decodePNG(t, b); w != h {
		t.Errorf("Size(4, 4) gave %d×%d", w, h)
	}
}
