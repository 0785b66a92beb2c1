package srcmap

import "strings"

// Builder writes generated code and its Map. The zero Builder is empty and
// ready to use.
type Builder struct {
	b    strings.Builder
	segs []segment
}

// Len is the number of bytes written so far.
func (b *Builder) Len() int { return b.b.Len() }

// String returns the text written so far.
func (b *Builder) String() string { return b.b.String() }

// Generated writes code of goaccel's own, which maps nowhere.
func (b *Builder) Generated(s string) { b.b.WriteString(s) }

// Copy writes text copied from the notebook, whose first byte is at at.
func (b *Builder) Copy(s string, at Origin) { b.add(s, at, true) }

// Insert writes code that stands for the notebook code at at (what a rewrite
// added): every byte of it maps to at.
func (b *Builder) Insert(s string, at Origin) { b.add(s, at, false) }

func (b *Builder) add(s string, at Origin, copied bool) {
	if s == "" {
		return
	}
	b.segs = append(b.segs, segment{off: b.b.Len(), n: len(s), at: at, copied: copied})
	b.b.WriteString(s)
}

// Append writes the text m maps with its mapping; cell, when not 0, names
// the cell of every origin that has none.
func (b *Builder) Append(m *Map, cell int) {
	base := b.b.Len()
	for _, s := range m.segs {
		s.off += base
		if s.at.Cell == 0 {
			s.at.Cell = cell
		}
		b.segs = append(b.segs, s)
	}
	b.b.WriteString(m.text)
}

// Map returns the map of what was written, for the file named file.
func (b *Builder) Map(file string) *Map {
	text := b.b.String()
	m := &Map{file: file, text: text, segs: append([]segment(nil), b.segs...), lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}
