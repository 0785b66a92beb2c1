package session

import (
	"context"
	"encoding/base64"
	"strings"
	"sync"
	"testing"
)

type sinkMsg struct {
	typ     string
	content map[string]any
}

type fakeSink struct {
	mu  sync.Mutex
	got []sinkMsg
}

func (f *fakeSink) Send(t string, c map[string]any) {
	f.mu.Lock()
	f.got = append(f.got, sinkMsg{t, c})
	f.mu.Unlock()
}

func TestCellsPublishDisplaysThroughTheSink(t *testing.T) {
	sink := &fakeSink{}
	s := hosted(t, Options{Display: sink})
	ctx := context.Background()
	cells := []string{
		`display.HTML("<b>hi</b>")`,
		"h := display.New(\"step 0\")\nh.Update(\"step 1\")",
		"display.Clear(true)",
		"p := plot.New()\np.Title.Text = \"loss\"\nline, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 0.5}})\np.Add(line)\nw, _ := p.WriterTo(3*vg.Inch, 2*vg.Inch, \"png\")\nvar buf bytes.Buffer\nw.WriteTo(&buf)\ndisplay.PNG(buf.Bytes())",
	}
	for _, c := range cells {
		if r := s.Execute(ctx, c); r.Error != nil {
			t.Fatalf("%q: %s\n%s", c, r.Error.Evalue, strings.Join(r.Error.Traceback, "\n"))
		}
	}
	var types []string
	for _, m := range sink.got {
		types = append(types, m.typ)
	}
	// HTML, New, Update, Clear, PNG.
	want := "display_data display_data update_display_data clear_output display_data"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("messages %q, want %q", got, want)
	}
	html := sink.got[0].content["data"].(map[string]any)["text/html"]
	if html != "<b>hi</b>" {
		t.Errorf("text/html %v", html)
	}
	png := sink.got[4].content["data"].(map[string]any)["image/png"].(string)
	raw, err := base64.StdEncoding.DecodeString(png)
	if err != nil || !strings.HasPrefix(string(raw), "\x89PNG") || len(raw) < 1000 {
		t.Errorf("the plot is not a PNG (%d bytes, err %v)", len(raw), err)
	}
}

func TestAFigureAsTheLastExpressionIsAPNG(t *testing.T) {
	s, _ := newSession(t)
	r := s.Execute(context.Background(), "plots.LineXY([]float64{0, 1, 2}, []float64{1, 0.5, 0.25}).Title(\"loss\")")
	if r.Error != nil {
		t.Fatalf("%s: %s", r.Error.Ename, r.Error.Evalue)
	}
	png, _ := r.Data["image/png"].(string)
	raw, err := base64.StdEncoding.DecodeString(png)
	if err != nil || !strings.HasPrefix(string(raw), "\x89PNG") || r.Data["text/plain"] != `<figure "loss">` {
		t.Fatalf("result bundle: text/plain %v, %d PNG bytes (err %v)", r.Data["text/plain"], len(raw), err)
	}
}
