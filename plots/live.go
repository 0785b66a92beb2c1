package plots

import (
	"encoding/base64"
	"fmt"
	"image/color"
	"sort"
	"sync"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/goaccel/goaccel/display"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/widgets"
)

// DefaultRedraw is the shortest time between two redraws of a Live plot:
// at most two redraws a second.
const DefaultRedraw = 500 * time.Millisecond

// maxDrawShare bounds the share of wall time a Live plot spends drawing: a
// redraw is due only while the time spent drawing, the next redraw
// included (estimated by the last one), stays within this share of the
// time since the first value.
const maxDrawShare = 0.02

// maxPoints is how many points of a series a redraw draws at most; longer
// series are thinned evenly (the last point always kept).
const maxPoints = 1000

// Live is a figure of named metrics against the step, one subplot per
// metric, that redraws itself in place under the running cell
// (update_display_data) as values arrive: the first image after Redraw,
// then at most every Redraw and never more than 2 % of the wall time, plus
// a final redraw on Flush. Several
// runs (StartRun, or Start when the Live is a reused accelerate tracker)
// share the figure, one line per run in each subplot. Outside a kernel it
// records values and draws nothing. A Live is safe for use by several
// goroutines.
//
// Live implements accelerate's Tracker interface (Start, Log, Finish), so
// acc.AddTracker(live) draws a training run's logged metrics.
type Live struct {
	// Redraw is the shortest time between two redraws; DefaultRedraw when zero.
	Redraw time.Duration
	// Format is how the figure is sent: "svg" or "png" for every image.
	// When empty, redraws during training are SVG (a tenth of a PNG's
	// drawing time, and smaller) and the final image, the one a saved
	// notebook keeps, is PNG: nbconvert's HTML export (6.5 to 7.x) strips
	// the inside of inline SVG outputs, and every notebook viewer shows PNG.
	Format string
	// Smoothing in [0, 1) draws an exponential moving average of each
	// metric (TensorBoard's smoothing, bias-corrected) over a faint line of
	// the raw values; 0 draws the raw values only.
	Smoothing float64
	// Widget draws into a widgets.Image under the cell, whose bytes travel
	// as a binary buffer over its comm, instead of a display updated in
	// place (update_display_data). An executed notebook then keeps the
	// widget's state, which nbconvert's HTML shows only with the widgets'
	// JavaScript; the display, the default, shows everywhere.
	Widget bool

	mu     sync.Mutex
	title  string
	runs   []*liveRun
	handle *display.Handle
	image  *widgets.Image // the Widget's image, once shown
	first  time.Time      // when the first value arrived
	last   time.Time      // when the last redraw ended
	cost   time.Duration  // how long it took
	spent  time.Duration  // drawing time in all
	dirty  bool
	shown  string // format of the image under the cell ("" before the first)
	draws  int
	now    func() time.Time // time.Now unless a test replaces it
}

type liveRun struct {
	name   string
	series map[string]plotter.XYs
}

// NewLive returns an empty live plot with the given title. Nothing is shown
// until the first Add.
func NewLive(title string) *Live { return &Live{title: title, now: time.Now} }

// StartRun begins a new run named name: values added from now on form new
// lines beside the earlier runs' in every subplot, and the figure shows
// afresh under the running cell (the earlier output keeps its last image).
func (l *Live) StartRun(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.startRun(name)
}

func (l *Live) startRun(name string) {
	if len(l.runs) == 1 && len(l.runs[0].series) == 0 {
		l.runs = l.runs[:0] // an empty first run is replaced, not kept
	}
	base, n := name, 2
	for l.hasRun(name) {
		name = fmt.Sprintf("%s (%d)", base, n)
		n++
	}
	l.runs = append(l.runs, &liveRun{name: name, series: map[string]plotter.XYs{}})
	l.handle, l.image, l.shown = nil, nil, ""
}

func (l *Live) hasRun(name string) bool {
	for _, r := range l.runs {
		if r.name == name {
			return true
		}
	}
	return false
}

// Add records the metrics logged at step and redraws when one is due.
// NaN and infinite values are left out of the plot.
func (l *Live) Add(step int, metrics map[string]float64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.runs) == 0 {
		l.startRun("")
	}
	run := l.runs[len(l.runs)-1]
	for name, v := range metrics {
		if !finite(v) {
			continue
		}
		run.series[name] = append(run.series[name], plotter.XY{X: float64(step), Y: v})
		l.dirty = true
	}
	if !l.dirty || !host.Current().InNotebook() {
		return nil
	}
	now := l.clock()
	if l.first.IsZero() {
		l.first = now
	}
	if !l.due(now) {
		return nil
	}
	return l.draw(false)
}

// due reports whether a redraw may happen now: Redraw after the previous
// one (or after the first value), within the drawing budget.
func (l *Live) due(now time.Time) bool {
	wait := l.Redraw
	if wait <= 0 {
		wait = DefaultRedraw
	}
	since := l.first
	if l.last.After(since) {
		since = l.last
	}
	budget := time.Duration(maxDrawShare * float64(now.Sub(l.first)))
	return now.Sub(since) >= wait && l.spent+l.cost <= budget
}

// Flush draws the final image of a run now: it redraws if anything was
// added since the last redraw, or if the image shown is not in the final
// format yet (see Format).
func (l *Live) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !host.Current().InNotebook() || !l.dirty && (l.shown == "" || l.shown == l.format(true)) {
		return nil
	}
	return l.draw(true)
}

// format is the image format of a redraw, the final one or not.
func (l *Live) format(final bool) string {
	switch {
	case l.Format == "png" || l.Format == "svg":
		return l.Format
	case l.Format == "" && final:
		return "png"
	}
	return "svg"
}

// Start begins a run named after project (accelerate's Tracker.Start).
func (l *Live) Start(project string, _ map[string]any) error {
	l.StartRun(project)
	return nil
}

// Log is Add with accelerate's Tracker argument order.
func (l *Live) Log(values map[string]float64, step int) error { return l.Add(step, values) }

// Finish draws the run's final image (accelerate's Tracker.Finish).
func (l *Live) Finish() error { return l.Flush() }

// Values returns a copy of the points recorded for one metric in the
// current run.
func (l *Live) Values(metric string) []plotter.XY {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.runs) == 0 {
		return nil
	}
	return append([]plotter.XY(nil), l.runs[len(l.runs)-1].series[metric]...)
}

// Runs returns the names of the runs, oldest first.
func (l *Live) Runs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, len(l.runs))
	for i, r := range l.runs {
		out[i] = r.name
	}
	return out
}

// Draws returns how many times the figure was drawn under a cell.
func (l *Live) Draws() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.draws
}

// Figure builds the figure of every metric recorded so far.
func (l *Live) Figure() *Figure {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.figure()
}

func (l *Live) metrics() []string {
	seen := map[string]bool{}
	var names []string
	for _, r := range l.runs {
		for m := range r.series {
			if !seen[m] {
				seen[m] = true
				names = append(names, m)
			}
		}
	}
	sort.Strings(names)
	return names
}

func (l *Live) figure() *Figure {
	metrics := l.metrics()
	cols := min(max(len(metrics), 1), 3)
	rows := max((len(metrics)+cols-1)/cols, 1)
	panels := make([][]*plot.Plot, rows)
	for r := range panels {
		panels[r] = make([]*plot.Plot, cols)
	}
	var legended []plot.Thumbnailer // the first subplot's lines, one per run
	for i, m := range metrics {
		p := plot.New()
		p.Title.Text = m
		p.X.Label.Text = "step"
		if len(l.runs) > 1 {
			p.Legend.Top = true
		}
		for ri, run := range l.runs {
			pts := run.series[m]
			if len(pts) == 0 {
				continue
			}
			if th := l.addSeries(p, run.name, ri, pts); th != nil && i == 0 {
				legended = append(legended, th)
			}
		}
		panels[i/cols][i%cols] = p
	}
	if len(metrics) == 0 {
		panels[0][0] = plot.New()
	}
	w, h := 6.0, 3.5
	if cols > 1 {
		w, h = 4*float64(cols), 3
	}
	f := &Figure{panels: panels, format: "png", legended: legended,
		width: vg.Length(w) * vg.Inch, height: vg.Length(h*float64(rows)) * vg.Inch}
	if len(metrics) == 1 {
		panels[0][0].Title.Text = l.title + ": " + metrics[0]
	} else {
		f.title = l.title
	}
	return f
}

// addSeries draws one run's values of a metric: the raw line, and over it
// the smoothed line when Smoothing is set. It returns the line the legend
// shows.
func (l *Live) addSeries(p *plot.Plot, run string, i int, pts plotter.XYs) plot.Thumbnailer {
	raw, err := plotter.NewLine(thin(pts))
	if err != nil {
		return nil
	}
	raw.Color = Color(i)
	raw.Width = vg.Points(1.5)
	legend := plot.Thumbnailer(raw)
	if l.Smoothing > 0 && l.Smoothing < 1 {
		raw.Color = faded(Color(i))
		raw.Width = vg.Points(1)
		p.Add(raw)
		sm, err := plotter.NewLine(thin(smooth(pts, l.Smoothing)))
		if err != nil {
			return legend
		}
		sm.Color, sm.Width = Color(i), vg.Points(1.5)
		p.Add(sm)
		legend = sm
	} else {
		p.Add(raw)
	}
	if len(l.runs) > 1 {
		p.Legend.Add(run, legend)
	}
	return legend
}

// smooth is TensorBoard's bias-corrected exponential moving average.
func smooth(pts plotter.XYs, w float64) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	avg, debias := 0.0, 1.0
	for i, p := range pts {
		avg = w*avg + (1-w)*p.Y
		debias *= w
		out[i] = plotter.XY{X: p.X, Y: avg / (1 - debias)}
	}
	return out
}

// thin keeps at most maxPoints evenly spaced points, the last included.
func thin(pts plotter.XYs) plotter.XYs {
	if len(pts) <= maxPoints {
		return pts
	}
	out := make(plotter.XYs, 0, maxPoints)
	stride := float64(len(pts)-1) / float64(maxPoints-1)
	for i := range maxPoints {
		out = append(out, pts[int(float64(i)*stride+0.5)])
	}
	out[len(out)-1] = pts[len(pts)-1]
	return out
}

func faded(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 80}
}

// clock is l.now; a Live made as &Live{} uses time.Now.
func (l *Live) clock() time.Time {
	if l.now == nil {
		return time.Now()
	}
	return l.now()
}

// draw shows the figure, or updates the image shown, in the format of a
// final redraw or of a redraw during training.
func (l *Live) draw(final bool) error {
	start := l.clock()
	l.dirty = false
	if l.Widget && host.Current().Comms != nil {
		return l.drawWidget(final, start)
	}
	v := display.Bundle{"text/plain": fmt.Sprintf("<live plot %q>", l.title)}
	format := l.format(final)
	if format == "png" {
		b, err := l.figure().renderPNGFast()
		if err != nil {
			return err
		}
		v["image/png"] = base64.StdEncoding.EncodeToString(b)
	} else {
		b, err := l.figure().Render("svg")
		if err != nil {
			return err
		}
		v["image/svg+xml"] = string(b)
	}
	if l.handle == nil {
		l.handle = display.New(v)
	} else if err := l.handle.Update(v); err != nil {
		return err
	}
	l.shown = format
	l.drawn(start)
	return nil
}

// drawWidget draws into the Widget's image, shown on first use: PNG or SVG
// bytes, as draw would send them, but as a binary buffer.
func (l *Live) drawWidget(final bool, start time.Time) error {
	format := l.format(final)
	var b []byte
	var err error
	if format == "png" {
		b, err = l.figure().renderPNGFast()
	} else {
		b, err = l.figure().Render("svg")
	}
	if err != nil {
		return err
	}
	encoding := format
	if format == "svg" {
		encoding = "svg+xml"
	}
	if l.image == nil {
		// Shown with its first figure in it: shown empty, the page
		// would hold an empty image until the next update.
		l.image = widgets.NewImage(nil)
		l.image.SetEncoded(encoding, b)
		if err := widgets.Display(l.image); err != nil {
			return err
		}
	} else {
		l.image.SetEncoded(encoding, b)
	}
	l.shown = format
	l.drawn(start)
	return nil
}

// drawn accounts for a redraw that began at start.
func (l *Live) drawn(start time.Time) {
	l.draws++
	l.last = l.clock()
	l.cost = l.last.Sub(start)
	l.spent += l.cost
}
