package widgets

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/comm"
)

// Checkbox is a box ticked or not (ipywidgets' Checkbox).
type Checkbox struct {
	*model
	changes listeners
}

// NewCheckbox returns a checkbox labelled description, ticked when value.
func NewCheckbox(description string, value bool) *Checkbox {
	c := &Checkbox{}
	c.model = newModel(controls("Checkbox", "CheckboxModel", "CheckboxView", "CheckboxStyleModel"), map[string]any{
		"description": description, "description_allow_html": false, "disabled": false, "indent": true, "value": value,
	})
	c.changed = func(msg comm.Message, keys []string) { c.fire(&msg, keys) }
	c.open()
	return c
}

func (c *Checkbox) fire(msg *comm.Message, keys []string) {
	if contains(keys, "value") {
		c.changes.fire(c.mgr, msg, c.Value())
		c.notify(msg)
	}
}

// Value reports whether the box is ticked.
func (c *Checkbox) Value() bool { return c.boolean("value") }

// SetValue ticks (true) or clears the box.
func (c *Checkbox) SetValue(v bool) { c.fire(nil, c.set(map[string]any{"value": v})) }

// Description returns the checkbox's label.
func (c *Checkbox) Description() string { return c.str("description") }

// SetDescription sets the checkbox's label.
func (c *Checkbox) SetDescription(d string) { c.set(map[string]any{"description": d}) }

// SetDisabled makes the checkbox read-only (true) or not.
func (c *Checkbox) SetDisabled(disabled bool) { c.set(map[string]any{"disabled": disabled}) }

// OnChange registers fn to run with the new value each time it changes: after
// the running cell when the user clicks the box, at once when SetValue does.
func (c *Checkbox) OnChange(fn func(value bool)) {
	c.changes.add(c.mgr, func(v any) { fn(v.(bool)) })
}

// MIMEBundle is how the notebook shows the checkbox.
func (c *Checkbox) MIMEBundle() map[string]any { return mimeBundle(c) }

// String describes the checkbox.
func (c *Checkbox) String() string {
	return fmt.Sprintf("Checkbox(%svalue=%t)", descPart(c.Description()), c.Value())
}
