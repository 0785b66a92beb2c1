package session

import (
	"github.com/goaccel/goaccel/kernel/internal/cells"
	"github.com/goaccel/goaccel/magics"
)

// IsComplete reports whether code is a complete cell: "complete",
// "incomplete" (with the indent for the next line) or "invalid". In a cell
// that line magics split (magics.Segments), the last part decides.
func (s *Session) IsComplete(code string) (status, indent string) {
	if segs := magics.Segments(code, goComplete); len(segs) > 1 {
		code = segs[len(segs)-1]
	}
	return cells.IsComplete(code)
}
