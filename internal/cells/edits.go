package cells

import (
	"go/token"
	"sort"
	"strings"
)

// edit replaces cell bytes [start, end) with text.
type edit struct {
	start, end int
	text       string
	used       bool // consumed into an enclosing edit's text
}

// edits collects the rewrites of one piece, in cell offsets.
type edits struct {
	src  string
	base int // file offset of cell byte 0
	fset *token.FileSet
	list []*edit
}

// off converts a position in the piece's AST to a cell offset.
func (e *edits) off(p token.Pos) int { return e.fset.Position(p).Offset - e.base }

func (e *edits) add(start, end int, text string) {
	e.list = append(e.list, &edit{start: start, end: end, text: text})
}

// textWith returns cell bytes [start, end) with the unused edits that lie
// inside applied, and marks those edits used. Rewrites register inner edits
// before outer ones, so an outer edit built from textWith includes them.
func (e *edits) textWith(start, end int) string {
	var in []*edit
	for _, ed := range e.list {
		if !ed.used && ed.start >= start && ed.end <= end {
			in = append(in, ed)
		}
	}
	sort.SliceStable(in, func(i, j int) bool { return in[i].start < in[j].start })
	var b strings.Builder
	at := start
	for _, ed := range in {
		if ed.start < at { // overlaps an edit already applied: keep the first
			continue
		}
		b.WriteString(e.src[at:ed.start])
		b.WriteString(ed.text)
		at = ed.end
		ed.used = true
	}
	b.WriteString(e.src[at:end])
	return b.String()
}
