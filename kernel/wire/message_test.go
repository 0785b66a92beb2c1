package wire

import "testing"

// Content is encoded as Python's json.dumps does: <, > and & are written as
// themselves, not as six-byte escapes, so a cell of '<' stays its size.
func TestNewMessageDoesNotEscapeHTML(t *testing.T) {
	m, err := NewMessage("execute_input", "s", nil, map[string]any{"code": "a < b && c > d"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(m.Content), `{"code":"a < b && c > d"}`; got != want {
		t.Fatalf("content = %s, want %s", got, want)
	}
}
