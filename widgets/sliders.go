package widgets

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/internal/comm"
)

// IntSlider is a slider of whole numbers (ipywidgets' IntSlider).
//
// Its value is read at any time, even while a cell runs and the user drags
// it: a training loop can read its learning-rate slider each step.
type IntSlider struct {
	*model
	changes listeners
}

// NewIntSlider returns a slider labelled description, from min to max in
// steps of 1, at value (kept within the range).
func NewIntSlider(description string, value, min, max int) *IntSlider {
	if max < min {
		min, max = max, min
	}
	s := &IntSlider{}
	s.model = newModel(controls("IntSlider", "IntSliderModel", "IntSliderView", "SliderStyleModel"), map[string]any{
		"behavior": "drag-tap", "continuous_update": true, "description": description, "description_allow_html": false,
		"disabled": false, "max": max, "min": min, "orientation": "horizontal", "readout": true, "readout_format": "d",
		"step": 1, "value": clampInt(value, min, max),
	})
	s.validate = func(state map[string]any, key string, v any) any {
		if key == "value" {
			return clampInt(v.(int), state["min"].(int), state["max"].(int))
		}
		return v
	}
	s.changed = func(msg comm.Message, keys []string) { s.fire(&msg, keys) }
	s.open()
	return s
}

func (s *IntSlider) fire(msg *comm.Message, keys []string) {
	if contains(keys, "value") {
		s.changes.fire(s.mgr, msg, s.Value())
		s.notify(msg)
	}
}

// Value returns the slider's value.
func (s *IntSlider) Value() int { return s.integer("value") }

// SetValue moves the slider to v (kept within its range); callbacks run at
// once when it moves.
func (s *IntSlider) SetValue(v int) {
	s.fire(nil, s.set(map[string]any{"value": clampInt(v, s.Min(), s.Max())}))
}

// Min returns the slider's lower end.
func (s *IntSlider) Min() int { return s.integer("min") }

// Max returns the slider's upper end.
func (s *IntSlider) Max() int { return s.integer("max") }

// SetRange sets the slider's ends; its value moves inside them if it must.
func (s *IntSlider) SetRange(min, max int) {
	if max < min {
		min, max = max, min
	}
	s.fire(nil, s.set(map[string]any{"min": min, "max": max, "value": clampInt(s.Value(), min, max)}))
}

// SetStep sets the slider's step (at least 1).
func (s *IntSlider) SetStep(step int) { s.set(map[string]any{"step": max(step, 1)}) }

// Description returns the slider's label.
func (s *IntSlider) Description() string { return s.str("description") }

// SetDescription sets the slider's label.
func (s *IntSlider) SetDescription(d string) { s.set(map[string]any{"description": d}) }

// SetDisabled makes the slider read-only (true) or movable.
func (s *IntSlider) SetDisabled(disabled bool) { s.set(map[string]any{"disabled": disabled}) }

// SetContinuousUpdate chooses whether the value follows the handle while the
// user drags it (true, the default) or changes once, when it is released.
func (s *IntSlider) SetContinuousUpdate(on bool) { s.set(map[string]any{"continuous_update": on}) }

// OnChange registers fn to run with the new value each time it changes: after
// the running cell when the user moves the slider, at once when SetValue or
// SetRange moves it.
func (s *IntSlider) OnChange(fn func(value int)) {
	s.changes.add(s.mgr, func(v any) { fn(v.(int)) })
}

// MIMEBundle is how the notebook shows the slider.
func (s *IntSlider) MIMEBundle() map[string]any { return mimeBundle(s) }

// String describes the slider.
func (s *IntSlider) String() string { return s.text("description", "value", "min", "max") }

// FloatSlider is a slider of real numbers (ipywidgets' FloatSlider).
// Its value is read at any time, as IntSlider's.
type FloatSlider struct {
	*model
	changes listeners
}

// NewFloatSlider returns a slider labelled description, from min to max at
// value (kept within the range), in steps of 0.1 as in ipywidgets, or of a
// hundredth of the range when the range is under 10.
func NewFloatSlider(description string, value, min, max float64) *FloatSlider {
	if max < min {
		min, max = max, min
	}
	step := 0.1
	if r := max - min; r > 0 && r < 10 {
		step = r / 100
	}
	s := &FloatSlider{}
	s.model = newModel(controls("FloatSlider", "FloatSliderModel", "FloatSliderView", "SliderStyleModel"), map[string]any{
		"behavior": "drag-tap", "continuous_update": true, "description": description, "description_allow_html": false,
		"disabled": false, "max": max, "min": min, "orientation": "horizontal", "readout": true, "readout_format": ".2f",
		"step": step, "value": clampFloat(value, min, max),
	})
	s.validate = func(state map[string]any, key string, v any) any {
		if key == "value" {
			return clampFloat(v.(float64), state["min"].(float64), state["max"].(float64))
		}
		return v
	}
	s.changed = func(msg comm.Message, keys []string) { s.fire(&msg, keys) }
	s.open()
	return s
}

func (s *FloatSlider) fire(msg *comm.Message, keys []string) {
	if contains(keys, "value") {
		s.changes.fire(s.mgr, msg, s.Value())
		s.notify(msg)
	}
}

// Value returns the slider's value.
func (s *FloatSlider) Value() float64 { return s.float("value") }

// SetValue moves the slider to v (kept within its range).
func (s *FloatSlider) SetValue(v float64) {
	s.fire(nil, s.set(map[string]any{"value": clampFloat(v, s.Min(), s.Max())}))
}

// Min returns the slider's lower end.
func (s *FloatSlider) Min() float64 { return s.float("min") }

// Max returns the slider's upper end.
func (s *FloatSlider) Max() float64 { return s.float("max") }

// SetRange sets the slider's ends; its value moves inside them if it must.
func (s *FloatSlider) SetRange(min, max float64) {
	if max < min {
		min, max = max, min
	}
	s.fire(nil, s.set(map[string]any{"min": min, "max": max, "value": clampFloat(s.Value(), min, max)}))
}

// SetStep sets the slider's step.
func (s *FloatSlider) SetStep(step float64) {
	if step > 0 {
		s.set(map[string]any{"step": step})
	}
}

// SetReadoutFormat sets how the value is written beside the slider, a d3
// format (".2f" by default, ".1e" for a learning rate).
func (s *FloatSlider) SetReadoutFormat(format string) {
	s.set(map[string]any{"readout_format": format})
}

// Description returns the slider's label.
func (s *FloatSlider) Description() string { return s.str("description") }

// SetDescription sets the slider's label.
func (s *FloatSlider) SetDescription(d string) { s.set(map[string]any{"description": d}) }

// SetDisabled makes the slider read-only (true) or movable.
func (s *FloatSlider) SetDisabled(disabled bool) { s.set(map[string]any{"disabled": disabled}) }

// SetContinuousUpdate chooses whether the value follows the handle while the
// user drags it (true, the default) or changes once, when it is released.
func (s *FloatSlider) SetContinuousUpdate(on bool) { s.set(map[string]any{"continuous_update": on}) }

// OnChange registers fn to run with the new value each time it changes, as
// IntSlider's OnChange.
func (s *FloatSlider) OnChange(fn func(value float64)) {
	s.changes.add(s.mgr, func(v any) { fn(v.(float64)) })
}

// MIMEBundle is how the notebook shows the slider.
func (s *FloatSlider) MIMEBundle() map[string]any { return mimeBundle(s) }

// String describes the slider.
func (s *FloatSlider) String() string {
	return fmt.Sprintf("FloatSlider(%svalue=%g, min=%g, max=%g)", descPart(s.Description()), s.Value(), s.Min(), s.Max())
}

func clampInt(v, lo, hi int) int { return min(max(v, lo), hi) }

func clampFloat(v, lo, hi float64) float64 {
	if math.IsNaN(v) {
		return lo
	}
	return math.Min(math.Max(v, lo), hi)
}

func contains(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

func descPart(d string) string {
	if d == "" {
		return ""
	}
	return fmt.Sprintf("description=%q, ", d)
}
