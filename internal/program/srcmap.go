package program

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
)

// SourceMap maps lines of a generated file back to the notebook. It is built
// while the file is written, one segment per declaration, so positions are
// never guessed by searching text.
type SourceMap struct {
	segs []segment // by line
}

// segment says that lines [line, line+lines) of the file are lines
// [at.Line, …) of cell at.Cell; on the first line the file has prefix bytes
// the cell does not, and the text starts at column at.Col of the cell.
type segment struct {
	line, lines int
	at          Origin
	prefix      int
}

func (m *SourceMap) add(line, lines int, at Origin, prefix int) {
	m.segs = append(m.segs, segment{line: line, lines: lines, at: at, prefix: prefix})
}

// Lookup maps a line and column (1-based; col 0 when unknown) of the file to
// the notebook; ok is false for generated lines (package clause, imports,
// comments).
func (m *SourceMap) Lookup(line, col int) (Origin, bool) {
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].line+m.segs[i].lines > line })
	if i == len(m.segs) || m.segs[i].line > line {
		return Origin{}, false
	}
	s := m.segs[i]
	o := Origin{Cell: s.at.Cell, Line: s.at.Line + line - s.line}
	switch {
	case col <= 0:
	case line == s.line:
		o.Col = max(s.at.Col, s.at.Col+col-1-s.prefix)
	default:
		o.Col = col
	}
	return o, true
}

// position matches a position in the generated file as compilers, yaegi and
// Go stack traces print it: an optional folder, the file name, a line and an
// optional column.
var position = regexp.MustCompile(`(?:[^\s:"']*/)?` + regexp.QuoteMeta(File) + `:(\d+)(?::(\d+))?`)

// Translate rewrites every position in the generated file that msg mentions
// into its notebook position ("cell [3], line 5:2"); positions on generated
// lines stay as they are.
func (m *SourceMap) Translate(msg string) string {
	return position.ReplaceAllStringFunc(msg, func(s string) string {
		sub := position.FindStringSubmatch(s)
		line, _ := strconv.Atoi(sub[1])
		col, _ := strconv.Atoi(sub[2])
		o, ok := m.Lookup(line, col)
		if !ok {
			return s
		}
		if o.Col > 0 {
			return fmt.Sprintf("%s:%d", o, o.Col)
		}
		return o.String()
	})
}

// First returns the notebook position of the first position in msg that
// maps to a cell.
func (m *SourceMap) First(msg string) (Origin, bool) {
	for _, p := range Positions(msg) {
		if o, ok := m.Lookup(p[0], p[1]); ok {
			return o, true
		}
	}
	return Origin{}, false
}

// Positions lists the (line, column) pairs of the positions in the generated
// file that msg mentions, in order (column 0 when absent).
func Positions(msg string) [][2]int {
	var out [][2]int
	for _, sub := range position.FindAllStringSubmatch(msg, -1) {
		line, _ := strconv.Atoi(sub[1])
		col, _ := strconv.Atoi(sub[2])
		out = append(out, [2]int{line, col})
	}
	return out
}
