package widgets

import (
	"fmt"
	"sync"

	"github.com/goaccel/goaccel/internal/comm"
)

// Button is a button to click (ipywidgets' Button).
//
// A click counts at once (Clicks, Clicked), even while a cell runs: a loop
// can poll the count, and compiled code can wait on Clicked. OnClick's
// callbacks, which are cell code, run after the running cell.
type Button struct {
	*model
	clicks listeners

	mu      sync.Mutex
	count   int
	waiters []chan struct{}
}

// NewButton returns a button labelled description.
func NewButton(description string) *Button {
	b := &Button{}
	b.model = newModel(controls("Button", "ButtonModel", "ButtonView", "ButtonStyleModel"), map[string]any{
		"button_style": "", "description": description, "disabled": false, "icon": "",
	})
	b.custom = func(msg comm.Message, content map[string]any) {
		if content["event"] == "click" {
			b.click(&msg)
		}
	}
	b.open()
	return b
}

// click counts a click, wakes the Clicked channels and runs the callbacks:
// deferred when a front end's message made it.
func (b *Button) click(msg *comm.Message) {
	b.mu.Lock()
	b.count++
	waiters := b.waiters
	b.waiters = nil
	b.mu.Unlock()
	for _, w := range waiters {
		close(w)
	}
	b.clicks.fire(b.mgr, msg, nil)
}

// Click clicks the button from code: it counts, and OnClick's callbacks run
// at once.
func (b *Button) Click() { b.click(nil) }

// Clicks returns how many times the button was clicked so far.
func (b *Button) Clicks() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.count
}

// Clicked returns a channel that is closed at the next click, at once, even
// while a cell runs; each call gives a new channel.
func (b *Button) Clicked() <-chan struct{} {
	ch := make(chan struct{})
	b.mu.Lock()
	b.waiters = append(b.waiters, ch)
	b.mu.Unlock()
	return ch
}

// OnClick registers fn to run at each click: after the running cell when the
// user clicks, at once for Click.
func (b *Button) OnClick(fn func()) {
	b.clicks.add(b.mgr, func(any) { fn() })
}

// Description returns the button's label.
func (b *Button) Description() string { return b.str("description") }

// SetDescription sets the button's label.
func (b *Button) SetDescription(d string) { b.set(map[string]any{"description": d}) }

// SetDisabled greys the button out (true): clicks do nothing.
func (b *Button) SetDisabled(disabled bool) { b.set(map[string]any{"disabled": disabled}) }

// Disabled reports whether the button is greyed out.
func (b *Button) Disabled() bool { return b.boolean("disabled") }

// SetButtonStyle colours the button by meaning: "primary", "success",
// "info", "warning", "danger" or "" (the default).
func (b *Button) SetButtonStyle(style string) error {
	switch style {
	case "", "primary", "success", "info", "warning", "danger":
		b.set(map[string]any{"button_style": style})
		return nil
	}
	return fmt.Errorf("widgets: button style %q is not one of primary, success, info, warning, danger or \"\"", style)
}

// SetIcon sets a Font Awesome icon shown before the label ("stop", "check").
func (b *Button) SetIcon(icon string) { b.set(map[string]any{"icon": icon}) }

// MIMEBundle is how the notebook shows the button.
func (b *Button) MIMEBundle() map[string]any { return mimeBundle(b) }

// String describes the button.
func (b *Button) String() string { return fmt.Sprintf("Button(description=%q)", b.Description()) }
