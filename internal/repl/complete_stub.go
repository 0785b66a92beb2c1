package repl

import "github.com/goaccel/goaccel/internal/cells"

// IsComplete reports whether code is a complete cell: "complete",
// "incomplete" (with the indent for the next line) or "invalid".
func (s *Session) IsComplete(code string) (status, indent string) { return cells.IsComplete(code) }
