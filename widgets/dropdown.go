package widgets

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/comm"
)

// Dropdown picks one of a list of options (ipywidgets' Dropdown). The front
// end sends the index of the option picked; Value is its label.
type Dropdown struct {
	*model
	changes listeners
}

// NewDropdown returns a dropdown labelled description with options, at value
// (the first option when value is not one of them).
func NewDropdown(description string, options []string, value string) *Dropdown {
	d := &Dropdown{}
	d.model = newModel(controls("Dropdown", "DropdownModel", "DropdownView", "DescriptionStyleModel"), map[string]any{
		"_options_labels": labels(options), "description": description, "description_allow_html": false,
		"disabled": false, "index": indexOf(options, value),
	})
	d.spec.immutable = []string{"_options_labels"}
	d.validate = func(state map[string]any, key string, v any) any {
		if key == "index" {
			n := v.(int)
			if opts, _ := state["_options_labels"].([]any); n < 0 || n >= len(opts) {
				return state["index"]
			}
		}
		return v
	}
	d.changed = func(msg comm.Message, keys []string) { d.fire(&msg, keys) }
	d.open()
	return d
}

func labels(options []string) []any {
	out := make([]any, len(options))
	for i, o := range options {
		out[i] = o
	}
	return out
}

// indexOf is value's index among options (0 when it is not one; nil, for
// the protocol's null, when there are none).
func indexOf(options []string, value string) any {
	if len(options) == 0 {
		return nil
	}
	for i, o := range options {
		if o == value {
			return i
		}
	}
	return 0
}

func (d *Dropdown) fire(msg *comm.Message, keys []string) {
	if contains(keys, "index") {
		d.changes.fire(d.mgr, msg, d.Value())
		d.notify(msg)
	}
}

// Options returns the dropdown's options.
func (d *Dropdown) Options() []string {
	l, _ := d.get("_options_labels").([]any)
	out := make([]string, len(l))
	for i, o := range l {
		out[i], _ = o.(string)
	}
	return out
}

// Index returns the index of the option picked (-1 with no options).
func (d *Dropdown) Index() int {
	n, ok := d.get("index").(int)
	if !ok {
		return -1
	}
	return n
}

// Value returns the option picked ("" with no options).
func (d *Dropdown) Value() string {
	opts, i := d.Options(), d.Index()
	if i < 0 || i >= len(opts) {
		return ""
	}
	return opts[i]
}

// SetValue picks option v; an option the dropdown lacks is an error.
func (d *Dropdown) SetValue(v string) error {
	for i, o := range d.Options() {
		if o == v {
			d.fire(nil, d.set(map[string]any{"index": i}))
			return nil
		}
	}
	return fmt.Errorf("widgets: %q is not an option of the dropdown (%q)", v, d.Options())
}

// SetOptions replaces the options; the option picked stays when it is still
// one, else the first is.
func (d *Dropdown) SetOptions(options []string) {
	d.fire(nil, d.set(map[string]any{"_options_labels": labels(options), "index": indexOf(options, d.Value())}))
}

// Description returns the dropdown's label.
func (d *Dropdown) Description() string { return d.str("description") }

// SetDescription sets the dropdown's label.
func (d *Dropdown) SetDescription(s string) { d.set(map[string]any{"description": s}) }

// SetDisabled makes the dropdown read-only (true) or not.
func (d *Dropdown) SetDisabled(disabled bool) { d.set(map[string]any{"disabled": disabled}) }

// OnChange registers fn to run with the option picked each time it changes:
// after the running cell when the user picks one, at once when SetValue or
// SetOptions changes it.
func (d *Dropdown) OnChange(fn func(value string)) {
	d.changes.add(d.mgr, func(v any) { fn(v.(string)) })
}

// MIMEBundle is how the notebook shows the dropdown.
func (d *Dropdown) MIMEBundle() map[string]any { return mimeBundle(d) }

// String describes the dropdown.
func (d *Dropdown) String() string {
	return fmt.Sprintf("Dropdown(%svalue=%q, options=%q)", descPart(d.Description()), d.Value(), d.Options())
}
