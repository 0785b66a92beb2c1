package widgets

// Typed reads of state values. The model keeps each key's type (front end
// updates are converted or refused), so these never see another type except
// for nullable keys.

func (m *model) str(key string) string {
	s, _ := m.get(key).(string)
	return s
}

func (m *model) integer(key string) int {
	n, _ := m.get(key).(int)
	return n
}

func (m *model) float(key string) float64 {
	f, _ := m.get(key).(float64)
	return f
}

func (m *model) boolean(key string) bool {
	b, _ := m.get(key).(bool)
	return b
}

// SetTooltip sets the text shown when the pointer rests on the widget.
func (m *model) SetTooltip(text string) {
	var v any = text
	if text == "" {
		v = nil
	}
	m.set(map[string]any{"tooltip": v})
}

// viewModel returns the model (viewer).
func (m *model) viewModel() *model { return m }
