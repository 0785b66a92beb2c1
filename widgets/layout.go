package widgets

import (
	"fmt"
	"sort"
)

// layoutKeys are the CSS properties of a Layout (ipywidgets' LayoutModel).
var layoutKeys = []string{
	"align_content", "align_items", "align_self", "border_bottom", "border_left", "border_right", "border_top",
	"bottom", "display", "flex", "flex_flow", "grid_area", "grid_auto_columns", "grid_auto_flow", "grid_auto_rows",
	"grid_column", "grid_gap", "grid_row", "grid_template_areas", "grid_template_columns", "grid_template_rows",
	"height", "justify_content", "justify_items", "left", "margin", "max_height", "max_width", "min_height",
	"min_width", "object_fit", "object_position", "order", "overflow", "padding", "right", "top", "visibility", "width",
}

// styleKeys are the properties of each style model, with their defaults.
var styleKeys = map[string]map[string]any{
	"SliderStyleModel":      {"description_width": "", "handle_color": nil},
	"ProgressStyleModel":    {"description_width": "", "bar_color": nil},
	"DescriptionStyleModel": {"description_width": ""},
	"CheckboxStyleModel":    {"description_width": "", "background": nil},
	"TextStyleModel":        {"description_width": "", "background": nil, "font_size": nil, "text_color": nil},
	"HTMLStyleModel":        {"description_width": "", "background": nil, "font_size": nil, "text_color": nil},
	"ButtonStyleModel": {"button_color": nil, "font_family": nil, "font_size": nil, "font_style": nil,
		"font_variant": nil, "font_weight": nil, "text_color": nil, "text_decoration": nil},
}

// Layout is a widget's CSS layout (width, height, margin, border_top, …),
// a model of its own as in ipywidgets: w.Layout().Set("width", "300px").
type Layout struct{ m *model }

func newLayout() *Layout {
	state := map[string]any{}
	for _, k := range layoutKeys {
		state[k] = nil
	}
	return &Layout{newModel(spec{kind: "Layout", model: "LayoutModel", view: "LayoutView", noLayout: true, noDOM: true,
		modelModule: baseModule, modelVersion: modulesVersion, viewModule: baseModule, viewVersion: modulesVersion}, state).open()}
}

// ModelID returns the layout model's id.
func (l *Layout) ModelID() string { return l.m.ModelID() }

// Set sets a CSS property (ipywidgets' name: "width", "max_height",
// "border_top", …) to value; "" removes it. An unknown property is an error.
func (l *Layout) Set(property, value string) error {
	return setProperty(l.m, property, value)
}

// Get returns a CSS property's value ("" when unset).
func (l *Layout) Get(property string) string {
	s, _ := l.m.get(property).(string)
	return s
}

// Style is a widget's style (description_width, bar_color, button_color,
// handle_color, …; which ones depends on the widget), a model of its own as
// in ipywidgets: bar.Style().Set("bar_color", "green").
type Style struct{ m *model }

func newStyle(name string) *Style {
	state := map[string]any{}
	for k, v := range styleKeys[name] {
		state[k] = v
	}
	return &Style{newModel(spec{kind: "Style", model: name, view: "StyleView", noLayout: true, noDOM: true,
		modelModule: controlsModule, modelVersion: modulesVersion, viewModule: baseModule, viewVersion: modulesVersion}, state).open()}
}

// ModelID returns the style model's id.
func (s *Style) ModelID() string { return s.m.ModelID() }

// Set sets a style property to value; "" removes a color or font, and is
// the default description_width. An unknown property is an error.
func (s *Style) Set(property, value string) error {
	return setProperty(s.m, property, value)
}

// Get returns a style property's value ("" when unset).
func (s *Style) Get(property string) string {
	v, _ := s.m.get(property).(string)
	return v
}

// setProperty sets a layout's or style's property: "" is null (unset),
// except for description_width, whose default is "".
func setProperty(m *model, property, value string) error {
	if _, ok := m.snapshot()[property]; !ok || property[0] == '_' {
		var known []string
		for k := range m.snapshot() {
			if k[0] != '_' {
				known = append(known, k)
			}
		}
		sort.Strings(known)
		return fmt.Errorf("widgets: %s has no property %q (it has %v)", m.spec.model, property, known)
	}
	var v any = value
	if value == "" && property != "description_width" {
		v = nil
	}
	m.set(map[string]any{property: v})
	return nil
}

// Layout returns the widget's layout.
func (m *model) Layout() *Layout { return m.layout }

// Style returns the widget's style, nil for widgets without one (Image,
// Output, boxes).
func (m *model) Style() *Style { return m.style }
