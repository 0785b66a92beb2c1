package repl

// Complete returns completion matches for the text before cursor (in code points).
func (s *Session) Complete(code string, cursor int) (matches []string, start, end int) {
	return nil, cursor, cursor
}

// Inspect returns documentation for the symbol under cursor.
func (s *Session) Inspect(code string, cursor int, detailLevel int) (found bool, data map[string]any) {
	return false, map[string]any{}
}

// Doc returns the documentation page of a symbol.
func (s *Session) Doc(symbol string) (string, bool) { return "", false }
