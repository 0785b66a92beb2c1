package widgets

import "fmt"

// Progress is a progress bar (ipywidgets' FloatProgress): its value between
// min and max, set from a cell or a training loop at any time.
type Progress struct{ *model }

// NewProgress returns a bar labelled description, from 0 to max, empty.
func NewProgress(description string, max float64) *Progress {
	p := &Progress{}
	p.model = newModel(controls("Progress", "FloatProgressModel", "ProgressView", "ProgressStyleModel"), map[string]any{
		"bar_style": "", "description": description, "description_allow_html": false,
		"max": max, "min": 0.0, "orientation": "horizontal", "value": 0.0,
	})
	p.open()
	return p
}

// Value returns the bar's value.
func (p *Progress) Value() float64 { return p.float("value") }

// SetValue sets the bar's value (kept between min and max).
func (p *Progress) SetValue(v float64) {
	p.set(map[string]any{"value": clampFloat(v, p.float("min"), p.float("max"))})
}

// Add advances the bar by delta.
func (p *Progress) Add(delta float64) { p.SetValue(p.Value() + delta) }

// Max returns the bar's full value.
func (p *Progress) Max() float64 { return p.float("max") }

// SetMax sets the bar's full value.
func (p *Progress) SetMax(max float64) { p.set(map[string]any{"max": max}) }

// Description returns the bar's label.
func (p *Progress) Description() string { return p.str("description") }

// SetDescription sets the bar's label.
func (p *Progress) SetDescription(d string) { p.set(map[string]any{"description": d}) }

// SetBarStyle colours the bar by meaning: "success", "info", "warning",
// "danger" or "" (the default colour).
func (p *Progress) SetBarStyle(style string) error {
	switch style {
	case "", "success", "info", "warning", "danger":
		p.set(map[string]any{"bar_style": style})
		return nil
	}
	return fmt.Errorf("widgets: bar style %q is not one of success, info, warning, danger or \"\"", style)
}

// MIMEBundle is how the notebook shows the bar.
func (p *Progress) MIMEBundle() map[string]any { return mimeBundle(p) }

// String describes the bar.
func (p *Progress) String() string {
	return fmt.Sprintf("Progress(%svalue=%g, max=%g)", descPart(p.Description()), p.Value(), p.Max())
}
