package display

import (
	"encoding/base64"
	"image"
	"image/color"
	"reflect"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/internal/host"
)

type msg struct {
	typ     string
	content map[string]any
}

type fakeSink struct{ got []msg }

func (f *fakeSink) Send(t string, c map[string]any) { f.got = append(f.got, msg{t, c}) }

func withSink(t *testing.T) *fakeSink {
	f := &fakeSink{}
	host.ForTest(t, host.Host{Display: f})
	return f
}

func data(m msg) map[string]any { return m.content["data"].(map[string]any) }

func TestDisplayFunctionsPublishTheirMIMEType(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	tests := []struct {
		name string
		call func() error
		mime string
		want any
	}{
		{"html", func() error { return HTML("<b>x</b>") }, "text/html", "<b>x</b>"},
		{"markdown", func() error { return Markdown("# t") }, "text/markdown", "# t"},
		{"svg", func() error { return SVG("<svg/>") }, "image/svg+xml", "<svg/>"},
		{"png", func() error { return PNG([]byte{1, 2}) }, "image/png", base64.StdEncoding.EncodeToString([]byte{1, 2})},
		{"json", func() error { return JSON(map[string]int{"a": 1}) }, "application/json", map[string]any{"a": float64(1)}},
		{"text", func() error { return Text("hello") }, "text/plain", "hello"},
		{"image", func() error { return Image(img) }, "text/plain", "<image 2x2>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := withSink(t)
			if err := tt.call(); err != nil {
				t.Fatal(err)
			}
			if len(f.got) != 1 || f.got[0].typ != "display_data" {
				t.Fatalf("messages %+v, want one display_data", f.got)
			}
			if got := data(f.got[0])[tt.mime]; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%s = %#v, want %#v", tt.mime, got, tt.want)
			}
			if _, ok := data(f.got[0])["text/plain"]; !ok {
				t.Error("bundle has no text/plain")
			}
		})
	}
}

func TestImagePublishesPNGThatDecodes(t *testing.T) {
	f := withSink(t)
	img := image.NewRGBA(image.Rect(0, 0, 3, 1))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	if err := Image(img); err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(data(f.got[0])["image/png"].(string))
	if err != nil || !strings.HasPrefix(string(raw), "\x89PNG") {
		t.Fatalf("image/png is not a base64 PNG (err %v)", err)
	}
}

func TestHandleUpdateReplacesTheSameDisplayID(t *testing.T) {
	f := withSink(t)
	h := New(Bundle{"text/html": "<i>0</i>"})
	if err := h.Update("done"); err != nil {
		t.Fatal(err)
	}
	if len(f.got) != 2 || f.got[0].typ != "display_data" || f.got[1].typ != "update_display_data" {
		t.Fatalf("messages %+v", f.got)
	}
	id0 := f.got[0].content["transient"].(map[string]any)["display_id"]
	id1 := f.got[1].content["transient"].(map[string]any)["display_id"]
	if id0 != h.ID() || id1 != h.ID() || h.ID() == "" {
		t.Errorf("display ids %v, %v, handle %q", id0, id1, h.ID())
	}
	if got := data(f.got[1])["text/plain"]; got != "done" {
		t.Errorf("updated text/plain %v", got)
	}
}

func TestClearSendsClearOutputWithWait(t *testing.T) {
	f := withSink(t)
	_ = Clear(true)
	if len(f.got) != 1 || f.got[0].typ != "clear_output" || f.got[0].content["wait"] != true {
		t.Fatalf("messages %+v", f.got)
	}
}

type page struct{}

func (page) HTML() string     { return "<p>p</p>" }
func (page) Markdown() string { return "p" }
func (page) String() string   { return "page" }

func TestBundleOfUsesEveryRendererMethod(t *testing.T) {
	b, err := BundleOf(page{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"text/html": "<p>p</p>", "text/markdown": "p", "text/plain": "page"}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("BundleOf = %v, want %v", b, want)
	}
}

func TestOutsideAKernelNothingIsWrittenAndNoErrorReturned(t *testing.T) {
	host.ForTest(t, host.Host{})
	for _, err := range []error{HTML("x"), Markdown("x"), SVG("x"), PNG(nil), JSON(1), Text("x"), Clear(false), New("x").Update("y")} {
		if err != nil {
			t.Errorf("got error %v outside a kernel", err)
		}
	}
}
