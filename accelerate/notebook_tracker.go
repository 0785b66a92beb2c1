package accelerate

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/color"
	"sort"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/goaccel/goaccel/internal/displaysink"
)

// notebookTracker draws every logged metric as a live line plot in the cell
// that runs the training, through the kernel's display sink. Outside the
// kernel (no sink installed) it does nothing.
type notebookTracker struct {
	project string
	series  map[string]plotter.XYs
	id      string
	shown   bool
	last    time.Time
	every   time.Duration
}

func newNotebookTracker() *notebookTracker {
	return &notebookTracker{series: map[string]plotter.XYs{}, every: 500 * time.Millisecond}
}

func (n *notebookTracker) Start(project string, _ map[string]any) error {
	n.project = project
	n.id = fmt.Sprintf("goaccel-metrics-%s-%d", project, time.Now().UnixNano())
	return nil
}

func (n *notebookTracker) Log(values map[string]float64, step int) error {
	for k, v := range values {
		n.series[k] = append(n.series[k], plotter.XY{X: float64(step), Y: v})
	}
	if displaysink.Get() == nil || time.Since(n.last) < n.every {
		return nil
	}
	return n.publish()
}

func (n *notebookTracker) Finish() error {
	if displaysink.Get() == nil || len(n.series) == 0 {
		return nil
	}
	return n.publish()
}

// publish renders the plot and shows it, replacing the previous rendering.
func (n *notebookTracker) publish() error {
	png, err := n.render()
	if err != nil {
		return err
	}
	kind := "update_display_data"
	if !n.shown {
		kind, n.shown = "display_data", true
	}
	displaysink.Get().Send(kind, map[string]any{
		"data":      map[string]any{"image/png": base64.StdEncoding.EncodeToString(png), "text/plain": "<metrics " + n.project + ">"},
		"metadata":  map[string]any{},
		"transient": map[string]any{"display_id": n.id},
	})
	n.last = time.Now()
	return nil
}

func (n *notebookTracker) render() ([]byte, error) {
	p := plot.New()
	p.Title.Text = n.project
	p.X.Label.Text = "step"
	names := make([]string, 0, len(n.series))
	for k := range n.series {
		names = append(names, k)
	}
	sort.Strings(names)
	palette := []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255}}
	for i, k := range names {
		l, err := plotter.NewLine(n.series[k])
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", k, err)
		}
		l.Color = palette[i%len(palette)]
		p.Add(l)
		p.Legend.Add(k, l)
	}
	w, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, "png")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
