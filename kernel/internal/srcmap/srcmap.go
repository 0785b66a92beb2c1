package srcmap

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Origin is a position in the notebook: a cell, named by its execution
// count (the N of In [N]; 0 when not known), and a 1-based line and byte
// column in it (column 0 when not known).
type Origin struct {
	Cell      int
	Line, Col int
}

// String formats o as "cell [3], line 5" ("line 5" without a cell).
func (o Origin) String() string {
	if o.Cell <= 0 {
		return fmt.Sprintf("line %d", o.Line)
	}
	return fmt.Sprintf("cell [%d], line %d", o.Cell, o.Line)
}

// WithCol formats o with its column when known: "cell [3], line 5:2".
func (o Origin) WithCol() string {
	if o.Col > 0 {
		return fmt.Sprintf("%s:%d", o, o.Col)
	}
	return o.String()
}

// segment says where bytes [off, off+n) of the generated text come from.
type segment struct {
	off, n int
	at     Origin
	copied bool // the bytes are the cell's own, from at on; else they all stand for at
}

// Map maps positions in one generated file back to the notebook.
type Map struct {
	file  string
	text  string
	lines []int // offset of the start of each line of text
	segs  []segment
}

// Text is the generated file.
func (m *Map) Text() string { return m.text }

// Line returns line n (1-based) of the generated file, "" when out of range.
func (m *Map) Line(n int) string {
	if n < 1 || n > len(m.lines) {
		return ""
	}
	end := len(m.text)
	if n < len(m.lines) {
		end = m.lines[n] - 1
	}
	return m.text[m.lines[n-1]:end]
}

// Offset converts a 1-based line and byte column of the generated file into
// a byte offset; col 0 means the line's start.
func (m *Map) Offset(line, col int) (int, bool) {
	if m == nil || line < 1 || line > len(m.lines) {
		return 0, false
	}
	off := m.lines[line-1] + max(col-1, 0)
	return min(off, len(m.text)), true
}

// Lookup maps a 1-based line and byte column (0: unknown) of the generated
// file to the notebook; ok is false for code goaccel wrote itself. With col
// 0 the result is the line's first mapped position, with Col 0.
func (m *Map) Lookup(line, col int) (Origin, bool) {
	off, ok := m.Offset(line, col)
	if !ok {
		return Origin{}, false
	}
	if col > 0 {
		return m.LookupOffset(off)
	}
	end := len(m.text)
	if line < len(m.lines) {
		end = m.lines[line]
	}
	for i := m.segAt(off); i < len(m.segs) && m.segs[i].off < end; i++ {
		if s := m.segs[i]; s.off+s.n > off {
			o, _ := m.LookupOffset(max(off, s.off))
			o.Col = 0
			return o, true
		}
	}
	return Origin{}, false
}

// LookupOffset maps a byte offset of the generated file to the notebook.
func (m *Map) LookupOffset(off int) (Origin, bool) {
	if m == nil {
		return Origin{}, false
	}
	i := m.segAt(off)
	if i == len(m.segs) || m.segs[i].off > off || off >= m.segs[i].off+m.segs[i].n {
		return Origin{}, false
	}
	s := m.segs[i]
	if !s.copied {
		return s.at, true
	}
	o := s.at
	inside := m.text[s.off:off]
	if nl := strings.Count(inside, "\n"); nl > 0 {
		o.Line += nl
		o.Col = len(inside) - strings.LastIndexByte(inside, '\n')
	} else if o.Col > 0 {
		o.Col += len(inside)
	}
	return o, true
}

// segAt returns the index of the first segment that ends after off.
func (m *Map) segAt(off int) int {
	return sort.Search(len(m.segs), func(i int) bool { return m.segs[i].off+m.segs[i].n > off })
}

// positionIn matches a position in file as compilers, yaegi and Go stack
// traces print it: an optional folder, the file name, a line and an
// optional column.
func positionIn(file string) *regexp.Regexp {
	return regexp.MustCompile(`(?:[^\s:"'()]*/)?` + regexp.QuoteMeta(file) + `:(\d+)(?::(\d+))?`)
}

// Translate rewrites every position in the map's file that msg mentions
// into its notebook position ("cell [3], line 5:2"); positions in code
// goaccel wrote stay as they are.
func (m *Map) Translate(msg string) string {
	re := positionIn(m.file)
	return re.ReplaceAllStringFunc(msg, func(s string) string {
		sub := re.FindStringSubmatch(s)
		line, _ := strconv.Atoi(sub[1])
		col, _ := strconv.Atoi(sub[2])
		o, ok := m.Lookup(line, col)
		if !ok {
			return s
		}
		return o.WithCol()
	})
}

// First returns the notebook position of the first position in msg that
// maps to a cell.
func (m *Map) First(msg string) (Origin, bool) {
	for _, p := range Positions(msg, m.file) {
		if o, ok := m.Lookup(p[0], p[1]); ok {
			return o, true
		}
	}
	return Origin{}, false
}

// Positions lists the (line, column) pairs of the positions in file that
// msg mentions, in order (column 0 when absent).
func Positions(msg, file string) [][2]int {
	var out [][2]int
	for _, sub := range positionIn(file).FindAllStringSubmatch(msg, -1) {
		line, _ := strconv.Atoi(sub[1])
		col, _ := strconv.Atoi(sub[2])
		out = append(out, [2]int{line, col})
	}
	return out
}
