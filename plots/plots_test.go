package plots

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/displaysink"
)

type recorder struct {
	mu   sync.Mutex
	msgs []string
	data []map[string]any
}

func (r *recorder) Send(msgType string, content map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, msgType)
	d, _ := content["data"].(map[string]any)
	r.data = append(r.data, d)
}

func withSink(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{}
	prev := displaysink.Get()
	displaysink.Set(r)
	t.Cleanup(func() { displaysink.Set(prev) })
	return r
}

func TestLineRejectsMismatchedLengths(t *testing.T) {
	if _, err := Line("x", []float64{1, 2}, []float64{1}); err == nil || !strings.Contains(err.Error(), "2 x values but 1 y values") {
		t.Fatalf("err = %v, want a message naming both lengths", err)
	}
}

func TestRenderFormats(t *testing.T) {
	p, err := Line("loss", nil, []float64{3, 2, 1.5, 1.2})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		format string
		prefix string
	}{
		{"png", "\x89PNG"},
		{"svg", "<?xml"},
	}
	for _, tc := range tests {
		b, err := Render(p, DefaultWidth, DefaultHeight, tc.format)
		if err != nil {
			t.Fatalf("%s: %v", tc.format, err)
		}
		if !bytes.HasPrefix(b, []byte(tc.prefix)) {
			t.Errorf("%s output starts %q, want %q", tc.format, b[:min(8, len(b))], tc.prefix)
		}
	}
	if _, err := Render(p, DefaultWidth, DefaultHeight, "bmp"); err == nil {
		t.Error("unknown format: want an error")
	}
}

func TestShowPublishesDecodablePNG(t *testing.T) {
	r := withSink(t)
	p, _ := Line("acc", []float64{0, 1}, []float64{0.5, 0.9})
	if err := Show(p); err != nil {
		t.Fatal(err)
	}
	if len(r.msgs) != 1 || r.msgs[0] != "display_data" {
		t.Fatalf("messages = %v, want one display_data", r.msgs)
	}
	raw, err := base64.StdEncoding.DecodeString(r.data[0]["image/png"].(string))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if img.Bounds().Dx() < 100 {
		t.Errorf("image width %d, want a real figure", img.Bounds().Dx())
	}
}

func TestLiveRedrawsInPlaceAndThrottles(t *testing.T) {
	r := withSink(t)
	live := NewLive("training")
	live.Redraw = time.Hour
	for step := range 50 {
		if err := live.Add(step, map[string]float64{"loss": 1 / float64(step+1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := live.Flush(); err != nil {
		t.Fatal(err)
	}
	want := []string{"display_data", "update_display_data"}
	if strings.Join(r.msgs, ",") != strings.Join(want, ",") {
		t.Fatalf("messages = %v, want %v (first draw, then one flush)", r.msgs, want)
	}
	if got := len(live.Values("loss")); got != 50 {
		t.Errorf("recorded %d points, want 50", got)
	}
	if err := live.Flush(); err != nil || len(r.msgs) != 2 {
		t.Errorf("flush with nothing new redrew (%d messages, err %v)", len(r.msgs), err)
	}
}

func TestLiveSkipsNonFiniteValues(t *testing.T) {
	live := NewLive("x")
	nan := 0.0
	nan /= nan
	_ = live.Add(0, map[string]float64{"loss": nan, "acc": 0.5})
	if len(live.Values("loss")) != 0 || len(live.Values("acc")) != 1 {
		t.Errorf("loss %v acc %v: want NaN dropped and acc kept", live.Values("loss"), live.Values("acc"))
	}
}

func TestLiveOutsideKernelDrawsNothing(t *testing.T) {
	displaysink.Set(nil)
	live := NewLive("quiet")
	if err := live.Add(0, map[string]float64{"loss": 1}); err != nil {
		t.Fatal(err)
	}
	if err := live.Flush(); err != nil {
		t.Fatal(err)
	}
}
