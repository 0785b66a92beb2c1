package widgets

import (
	"fmt"
	"strings"
)

// Box lays widgets out in a row (NewHBox) or a column (NewVBox).
type Box struct {
	*model
	children []Widget // guarded by model.mu
}

// NewHBox returns a row of children.
func NewHBox(children ...Widget) *Box { return newBox("HBoxModel", "HBoxView", children) }

// NewVBox returns a column of children.
func NewVBox(children ...Widget) *Box { return newBox("VBoxModel", "VBoxView", children) }

func newBox(model, view string, children []Widget) *Box {
	kind := strings.TrimSuffix(model, "Model")
	b := &Box{}
	b.model = newModel(controls(kind, model, view, ""), map[string]any{"box_style": "", "children": refs(children)})
	b.children = append([]Widget(nil), children...)
	b.spec.immutable = []string{"children"}
	b.open()
	return b
}

// refs is the protocol's list of references to widgets.
func refs(ws []Widget) []any {
	out := make([]any, 0, len(ws))
	for _, w := range ws {
		if w != nil {
			out = append(out, "IPY_MODEL_"+w.ModelID())
		}
	}
	return out
}

// Children returns the box's widgets.
func (b *Box) Children() []Widget {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Widget(nil), b.children...)
}

// SetChildren replaces the box's widgets.
func (b *Box) SetChildren(children ...Widget) {
	b.mu.Lock()
	b.children = append([]Widget(nil), children...)
	b.mu.Unlock()
	b.set(map[string]any{"children": refs(children)})
}

// SetBoxStyle colours the box's border by meaning: "success", "info",
// "warning", "danger" or "".
func (b *Box) SetBoxStyle(style string) error {
	switch style {
	case "", "success", "info", "warning", "danger":
		b.set(map[string]any{"box_style": style})
		return nil
	}
	return fmt.Errorf("widgets: box style %q is not one of success, info, warning, danger or \"\"", style)
}

// MIMEBundle is how the notebook shows the box.
func (b *Box) MIMEBundle() map[string]any { return mimeBundle(b) }

// String describes the box and its children.
func (b *Box) String() string {
	var parts []string
	for _, c := range b.Children() {
		if s, ok := c.(fmt.Stringer); ok {
			parts = append(parts, s.String())
		} else {
			parts = append(parts, fmt.Sprintf("%T", c))
		}
	}
	return b.spec.kind + "(" + strings.Join(parts, ", ") + ")"
}
