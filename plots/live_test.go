package plots

import (
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotter"

	"github.com/goaccel/goaccel/internal/host"
)

// fakeClock advances only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func newTestLive(c *fakeClock) *Live {
	l := NewLive("training")
	l.now = c.now
	return l
}

func TestLiveRedrawsAtMostTwiceASecondPlusAFinalRedraw(t *testing.T) {
	r := withSink(t)
	c := &fakeClock{t: time.Unix(0, 0)}
	live := newTestLive(c)
	for step := range 300 { // 3 s of logging, a value every 10 ms
		if err := live.Add(step, map[string]float64{"loss": 1 / float64(step+1)}); err != nil {
			t.Fatal(err)
		}
		c.t = c.t.Add(10 * time.Millisecond)
	}
	before := live.Draws()
	if before < 2 || before > 6 { // after 0.5 s, then ≤ 2 a second over 3 s
		t.Errorf("%d redraws over 3 s of logging, want between 2 and 6", before)
	}
	if err := live.Flush(); err != nil {
		t.Fatal(err)
	}
	if live.Draws() != before+1 {
		t.Errorf("Flush drew %d times, want the one final redraw", live.Draws()-before)
	}
	if r.msgs[0] != "display_data" || r.msgs[len(r.msgs)-1] != "update_display_data" {
		t.Errorf("messages %v: want one display_data, then updates of it", r.msgs)
	}
	for i, id := range r.ids {
		if id != r.ids[0] || id == nil {
			t.Fatalf("message %d has display_id %v, want the first's %v (updated in place)", i, id, r.ids[0])
		}
	}
	if err := live.Flush(); err != nil || live.Draws() != before+1 {
		t.Errorf("a Flush with nothing new redrew (err %v)", err)
	}
	if got := len(live.Values("loss")); got != 300 {
		t.Errorf("recorded %d points, want 300", got)
	}
}

// slowSink makes every redraw take 100 ms on the fake clock.
type slowSink struct {
	c     *fakeClock
	sends int
}

func (s *slowSink) Send(string, map[string]any) { s.c.t = s.c.t.Add(100 * time.Millisecond); s.sends++ }

func TestLiveDrawsAtMostTwoPercentOfTheTime(t *testing.T) {
	c := &fakeClock{t: time.Unix(0, 0)}
	sink := &slowSink{c: c}
	host.ForTest(t, host.Host{Display: sink})
	live := newTestLive(c)
	start := c.t
	for step := range 300 { // 12 s of training, a value every 40 ms
		_ = live.Add(step, map[string]float64{"loss": 1})
		c.t = c.t.Add(40 * time.Millisecond)
	}
	elapsed := c.t.Sub(start)
	spent := time.Duration(live.Draws()) * 100 * time.Millisecond
	// 2 % of 12 s allows two redraws of 100 ms (the second one's cost was
	// known in advance); a plain twice-a-second throttle would draw 24.
	if spent > time.Duration(0.02*float64(elapsed))+100*time.Millisecond || live.Draws() == 0 {
		t.Errorf("%d redraws of 100 ms in %v, want drawing within 2 %% of the time (and at least one)", live.Draws(), elapsed)
	}
	before := live.Draws()
	_ = live.Flush()
	if live.Draws() != before+1 {
		t.Error("Flush must draw the final image whatever the budget")
	}
}

func TestLiveHasOneSubplotPerMetric(t *testing.T) {
	live := NewLive("mnist")
	for step := range 5 {
		_ = live.Add(step, map[string]float64{"loss": 1, "accuracy": 0.5, "lr": 1e-3})
	}
	f := live.Figure()
	if len(f.Panels()) != 1 || len(f.Panels()[0]) != 3 {
		t.Fatalf("panels %d×%d, want 1×3", len(f.Panels()), len(f.Panels()[0]))
	}
	var titles []string
	for _, p := range f.Panels()[0] {
		titles = append(titles, p.Title.Text)
	}
	if strings.Join(titles, ",") != "accuracy,loss,lr" {
		t.Errorf("subplot titles %v, want the metrics in name order", titles)
	}
	if _, err := f.Render("png"); err != nil {
		t.Fatal(err)
	}
}

func TestLiveRunsShareTheFigureWithALegend(t *testing.T) {
	r := withSink(t)
	live := NewLive("lr sweep")
	for _, run := range []string{"lr=1e-3", "lr=1e-2", "lr=1e-3"} {
		_ = live.Start(run, nil)
		for step := range 3 {
			_ = live.Log(map[string]float64{"loss": float64(3 - step)}, step)
		}
		_ = live.Finish()
	}
	if got := strings.Join(live.Runs(), "|"); got != "lr=1e-3|lr=1e-2|lr=1e-3 (2)" {
		t.Errorf("runs %q", got)
	}
	f := live.Figure()
	if n := len(f.legended); n != 3 || !f.Plot().Legend.Top {
		t.Errorf("legend has %d entries, want one per run", n)
	}
	// Each run shows its figure afresh (a new display), then updates it.
	shown := 0
	for _, m := range r.msgs {
		if m == "display_data" {
			shown++
		}
	}
	if shown != 3 {
		t.Errorf("%d display_data messages for 3 runs (%v)", shown, r.msgs)
	}
	if got := live.Values("loss"); len(got) != 3 {
		t.Errorf("current run has %d points, want 3", len(got))
	}
}

func TestLiveSmoothingIsABiasCorrectedMovingAverage(t *testing.T) {
	pts := smooth(plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 0}, {X: 2, Y: 0}}, 0.5)
	// TensorBoard: 1; (0.5·0.5+0)/(1-0.25)=1/3; (0.125)/(0.875)=1/7.
	want := []float64{1, 1.0 / 3, 1.0 / 7}
	for i, p := range pts {
		if math.Abs(p.Y-want[i]) > 1e-12 {
			t.Errorf("smoothed[%d] = %v, want %v", i, p.Y, want[i])
		}
	}
	live := NewLive("s")
	live.Smoothing = 0.9
	for step := range 50 {
		_ = live.Add(step, map[string]float64{"loss": float64(step % 5)})
	}
	if _, err := live.Figure().Render("png"); err != nil {
		t.Fatal(err)
	}
}

func TestLiveSkipsNonFiniteValuesAndThinsLongSeries(t *testing.T) {
	live := NewLive("x")
	_ = live.Add(0, map[string]float64{"loss": math.NaN(), "acc": 0.5})
	if len(live.Values("loss")) != 0 || len(live.Values("acc")) != 1 {
		t.Errorf("loss %v acc %v: want NaN dropped and acc kept", live.Values("loss"), live.Values("acc"))
	}
	long := make(plotter.XYs, 5000)
	for i := range long {
		long[i].X = float64(i)
	}
	th := thin(long)
	if len(th) != maxPoints || th[len(th)-1].X != 4999 || th[0].X != 0 {
		t.Errorf("thin: %d points from %v to %v", len(th), th[0].X, th[len(th)-1].X)
	}
}

func TestLiveOutsideAKernelRecordsButDrawsNothing(t *testing.T) {
	host.ForTest(t, host.Host{})
	live := NewLive("quiet")
	for step := range 10 {
		if err := live.Add(step, map[string]float64{"loss": 1}); err != nil {
			t.Fatal(err)
		}
	}
	if err := live.Flush(); err != nil || live.Draws() != 0 || len(live.Values("loss")) != 10 {
		t.Errorf("err %v, %d draws, %d values", err, live.Draws(), len(live.Values("loss")))
	}
}

// mimeOf is the image type of a recorded display bundle.
func mimeOf(d map[string]any) string {
	for _, m := range []string{"image/png", "image/svg+xml"} {
		if _, ok := d[m]; ok {
			return m
		}
	}
	return ""
}

func TestLiveFinalImageIsPNGSoThatSavedNotebooksShowIt(t *testing.T) {
	tests := []struct {
		format      string
		live, final string // the image type during training, at the end
	}{
		{"", "image/svg+xml", "image/png"},
		{"svg", "image/svg+xml", "image/svg+xml"},
		{"png", "image/png", "image/png"},
	}
	for _, tt := range tests {
		t.Run("format="+tt.format, func(t *testing.T) {
			r := withSink(t)
			c := &fakeClock{t: time.Unix(0, 0)}
			live := newTestLive(c)
			live.Format = tt.format
			for step := range 200 {
				_ = live.Add(step, map[string]float64{"loss": 1 / float64(step+1)})
				c.t = c.t.Add(10 * time.Millisecond)
			}
			// The last value was drawn: Flush has nothing new, but the
			// image shown must still end in the final format.
			c.t = c.t.Add(time.Second)
			_ = live.Add(200, map[string]float64{"loss": 0.001})
			_ = live.Flush()
			n := len(r.data)
			if n < 2 {
				t.Fatalf("%d images sent, want redraws during training and a final one", n)
			}
			for i, d := range r.data[:n-1] {
				if got := mimeOf(d); got != tt.live {
					t.Errorf("redraw %d is %s, want %s", i, got, tt.live)
				}
			}
			if got := mimeOf(r.data[n-1]); got != tt.final {
				t.Errorf("final image is %s, want %s", got, tt.final)
			}
			if r.msgs[n-1] != "update_display_data" || r.ids[n-1] != r.ids[0] {
				t.Errorf("the final image is a %s of display %v, want an update of %v", r.msgs[n-1], r.ids[n-1], r.ids[0])
			}
			_ = live.Flush()
			if len(r.data) != n {
				t.Errorf("a second Flush with nothing new sent %d more images", len(r.data)-n)
			}
		})
	}
}
