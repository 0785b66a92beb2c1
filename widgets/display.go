package widgets

import (
	"errors"
	"fmt"

	"github.com/goaccel/goaccel/internal/host"
)

// bundle is the MIME bundle that shows the model: its view, for front ends
// with ipywidgets (JupyterLab, Notebook 7, VS Code), and text/plain for the
// others.
func (m *model) bundle(text string) map[string]any {
	return map[string]any{
		ViewMIME:     map[string]any{"model_id": m.ModelID(), "version_major": 2, "version_minor": 1},
		"text/plain": text,
	}
}

// display publishes a bundle under the running cell (nothing outside a
// kernel).
func display(b map[string]any) error {
	s := host.Current().Display
	if s == nil {
		return nil
	}
	s.Send("display_data", map[string]any{"data": b, "metadata": map[string]any{}, "transient": map[string]any{}})
	return nil
}

// viewer is what every widget of the package is: a model with its
// text/plain form.
type viewer interface {
	Widget
	viewModel() *model
	String() string
}

// Display shows widgets under the running cell, in order (a widget left as
// a cell's last expression shows itself). A widget made by the cell that
// registered callbacks is followed by that cell's callback output area.
func Display(ws ...Widget) error {
	var errs []error
	for _, w := range ws {
		v, ok := w.(viewer)
		if !ok {
			errs = append(errs, fmt.Errorf("widgets: Display: %T is not a widget of package widgets", w))
			continue
		}
		m := v.viewModel()
		errs = append(errs, display(m.bundle(v.String())))
		if area := pendingArea(m.mgr); area != nil {
			errs = append(errs, display(area.bundle(area.String())))
		}
	}
	return errors.Join(errs...)
}

// mimeBundle is a widget's MIMEBundle: its view, or, when the cell that
// shows it registered callbacks, a VBox of it and the cell's callback output
// area (a cell's result is shown after everything the cell displayed, so
// the area goes with it).
func mimeBundle(v viewer) map[string]any {
	m := v.viewModel()
	if area := pendingArea(m.mgr); area != nil {
		return NewVBox(v, area).bundle(v.String())
	}
	return m.bundle(v.String())
}
