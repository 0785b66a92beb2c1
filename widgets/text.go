package widgets

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/comm"
)

// Text is a one-line text box (ipywidgets' Text).
type Text struct {
	*model
	changes, submits listeners
}

// NewText returns a text box labelled description holding value.
func NewText(description, value string) *Text {
	t := &Text{}
	t.model = newModel(controls("Text", "TextModel", "TextView", "TextStyleModel"), map[string]any{
		"continuous_update": true, "description": description, "description_allow_html": false,
		"disabled": false, "placeholder": "\u200b", "value": value,
	})
	t.changed = func(msg comm.Message, keys []string) { t.fire(&msg, keys) }
	t.custom = func(msg comm.Message, content map[string]any) {
		if content["event"] == "submit" {
			t.submits.fire(t.mgr, &msg, t.Value())
		}
	}
	t.open()
	return t
}

func (t *Text) fire(msg *comm.Message, keys []string) {
	if contains(keys, "value") {
		t.changes.fire(t.mgr, msg, t.Value())
		t.notify(msg)
	}
}

// Value returns the text.
func (t *Text) Value() string { return t.str("value") }

// SetValue replaces the text.
func (t *Text) SetValue(v string) { t.fire(nil, t.set(map[string]any{"value": v})) }

// SetPlaceholder sets the grey text shown while the box is empty.
func (t *Text) SetPlaceholder(p string) { t.set(map[string]any{"placeholder": p}) }

// Description returns the text box's label.
func (t *Text) Description() string { return t.str("description") }

// SetDescription sets the text box's label.
func (t *Text) SetDescription(d string) { t.set(map[string]any{"description": d}) }

// SetDisabled makes the text box read-only (true) or not.
func (t *Text) SetDisabled(disabled bool) { t.set(map[string]any{"disabled": disabled}) }

// OnChange registers fn to run with the text each time it changes (each
// keystroke, unless continuous updates are off): after the running cell
// when the user types, at once when SetValue changes it.
func (t *Text) OnChange(fn func(value string)) {
	t.changes.add(t.mgr, func(v any) { fn(v.(string)) })
}

// OnSubmit registers fn to run with the text when the user presses Enter in
// the box, after the running cell. It gets the text the kernel has when the
// Enter arrives: ipywidgets' front end sends the Enter at once but holds
// typed text back while the box's previous update is unanswered, so keys
// typed within a round trip of the Enter can be missing (ipykernel's
// on_submit has the same race; the browser test types, then waits for the
// kernel to have the text).
func (t *Text) OnSubmit(fn func(value string)) {
	t.submits.add(t.mgr, func(v any) { fn(v.(string)) })
}

// MIMEBundle is how the notebook shows the text box.
func (t *Text) MIMEBundle() map[string]any { return mimeBundle(t) }

// String describes the text box.
func (t *Text) String() string {
	return fmt.Sprintf("Text(%svalue=%q)", descPart(t.Description()), t.Value())
}

// HTML shows an HTML fragment that code can replace (ipywidgets' HTML):
// a status line, a table of metrics.
type HTML struct{ *model }

// NewHTML returns a widget showing html.
func NewHTML(html string) *HTML {
	h := &HTML{}
	h.model = newModel(controls("HTML", "HTMLModel", "HTMLView", "HTMLStyleModel"), map[string]any{
		"description": "", "description_allow_html": false, "placeholder": "\u200b", "value": html,
	})
	h.open()
	return h
}

// Value returns the HTML shown.
func (h *HTML) Value() string { return h.str("value") }

// SetValue replaces the HTML shown.
func (h *HTML) SetValue(html string) { h.set(map[string]any{"value": html}) }

// SetDescription sets a label shown beside the HTML.
func (h *HTML) SetDescription(d string) { h.set(map[string]any{"description": d}) }

// MIMEBundle is how the notebook shows the widget.
func (h *HTML) MIMEBundle() map[string]any { return mimeBundle(h) }

// String describes the widget.
func (h *HTML) String() string { return fmt.Sprintf("HTML(value=%q)", h.Value()) }
