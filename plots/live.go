package plots

import (
	"encoding/base64"
	"fmt"
	"sort"
	"sync"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/goaccel/goaccel/display"
)

// DefaultRedraw is how often a Live plot redraws at most.
const DefaultRedraw = 500 * time.Millisecond

// Live is a plot of named metrics against the step that redraws itself in
// place under the cell (update_display_data) as values arrive. It is safe
// for use by several goroutines.
type Live struct {
	mu     sync.Mutex
	title  string
	series map[string]plotter.XYs
	handle *display.Handle
	last   time.Time
	dirty  bool
	// Redraw is the minimum time between two redraws; DefaultRedraw when zero.
	Redraw time.Duration
}

// NewLive returns an empty live plot with the given title. Nothing is shown
// until the first Add.
func NewLive(title string) *Live {
	return &Live{title: title, series: map[string]plotter.XYs{}}
}

// Add records the metrics logged at step and redraws when the last redraw is
// older than Redraw. Non-finite values are kept out of the plot.
func (l *Live) Add(step int, metrics map[string]float64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for name, v := range metrics {
		if v != v || v > 1e300 || v < -1e300 {
			continue
		}
		l.series[name] = append(l.series[name], plotter.XY{X: float64(step), Y: v})
		l.dirty = true
	}
	redraw := l.Redraw
	if redraw == 0 {
		redraw = DefaultRedraw
	}
	if time.Since(l.last) < redraw {
		return nil
	}
	return l.draw()
}

// Flush redraws now if anything was added since the last redraw.
func (l *Live) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.dirty {
		return nil
	}
	return l.draw()
}

// Values returns a copy of the points recorded for one metric.
func (l *Live) Values(name string) []plotter.XY {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]plotter.XY(nil), l.series[name]...)
}

// Plot builds the figure of every metric recorded so far, one line each, in
// name order.
func (l *Live) Plot() (*plot.Plot, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.plot()
}

func (l *Live) plot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = l.title
	p.X.Label.Text = "step"
	p.Legend.Top = true
	names := make([]string, 0, len(l.series))
	for name := range l.series {
		names = append(names, name)
	}
	sort.Strings(names)
	for i, name := range names {
		line, err := plotter.NewLine(l.series[name])
		if err != nil {
			return nil, fmt.Errorf("plots: live %q metric %q: %w", l.title, name, err)
		}
		line.Color = Color(i)
		p.Add(line)
		p.Legend.Add(name, line)
	}
	return p, nil
}

func (l *Live) draw() error {
	l.last, l.dirty = time.Now(), false
	p, err := l.plot()
	if err != nil {
		return err
	}
	b, err := PNG(p)
	if err != nil {
		return err
	}
	v := display.Bundle{"image/png": base64.StdEncoding.EncodeToString(b), "text/plain": fmt.Sprintf("<live plot %q>", l.title)}
	if l.handle == nil {
		l.handle = display.New(v)
		return nil
	}
	return l.handle.Update(v)
}
