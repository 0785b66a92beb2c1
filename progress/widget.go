package progress

import (
	"fmt"
	"html"
	"math"
	"time"

	"github.com/goaccel/goaccel/widgets"
)

// barWidget is a bar drawn as Jupyter widgets (Options.Widget), the way
// tqdm.notebook draws one: a row of the label, a Progress and the counts.
// Updates go over the widgets' comms; the front end redraws the bar without
// a new display message.
type barWidget struct {
	row          *widgets.Box
	label, stats *widgets.HTML
	bar          *widgets.Progress
}

func newBarWidget() *barWidget {
	w := &barWidget{label: widgets.NewHTML(""), bar: widgets.NewProgress("", 1), stats: widgets.NewHTML("")}
	w.row = widgets.NewHBox(w.label, w.bar, w.stats)
	return w
}

// drawWidget shows b in the widget of its nesting depth, made and shown on
// first use, as drawNotebook does with displays (t.mu held).
func (t *tree) drawWidget(b *Bar, now time.Time) {
	for len(t.widgets) <= b.depth {
		w := newBarWidget()
		t.widgets = append(t.widgets, w)
		_ = widgets.Display(w.row)
	}
	w := t.widgets[b.depth]
	w.label.SetValue(html.EscapeString(b.opts.Desc))
	total := float64(b.opts.Total)
	switch {
	case b.opts.Total > 0:
		w.bar.SetMax(total)
		w.bar.SetValue(math.Min(float64(b.n), total))
	case b.closed:
		w.bar.SetMax(1)
		w.bar.SetValue(1)
	default:
		w.bar.SetMax(1)
	}
	style := ""
	switch {
	case b.closed && (b.opts.Total == 0 || b.n >= b.opts.Total):
		style = "success"
	case b.closed:
		style = "danger"
	}
	_ = w.bar.SetBarStyle(style)
	counts := fmt.Sprintf("%d%s", b.n, b.unit())
	if b.opts.Total > 0 {
		counts = fmt.Sprintf("%3d%% %d/%d", int(100*math.Min(1, float64(b.n)/total)), b.n, b.opts.Total)
	}
	w.stats.SetValue(`<span style="font-family:monospace;white-space:pre">` + html.EscapeString(counts+" "+b.stats(b.elapsed(now))) + `</span>`)
}
