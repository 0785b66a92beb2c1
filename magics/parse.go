package magics

import (
	"strings"
)

// Call is one magic invocation found in a cell.
type Call struct {
	Name  string // magic name without % (e.g. "time", "writefile"); "!" for a shell command
	Cell  bool   // a %% cell magic
	Args  string // the rest of the magic's line, trimmed
	Body  string // for cell magics: the cell after the first line
	Line  int    // 1-based cell line of the magic
	Shell bool   // a !command line
}

// Parse splits a cell into its leading magic lines and the Go code after
// them. A cell whose first line is a %% magic is all one Call. Go code keeps
// its line numbers: the magic lines are blanked out of goCode. goCode is ""
// when the cell has no Go code.
func Parse(cell string) (calls []Call, goCode string) {
	lines := strings.Split(cell, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" && len(calls) == 0 {
			continue
		}
		switch {
		case strings.HasPrefix(t, "%%") && len(calls) == 0:
			name, args := splitName(t[2:])
			return []Call{{Name: name, Cell: true, Args: args, Body: strings.Join(lines[i+1:], "\n"), Line: i + 1}}, ""
		case strings.HasPrefix(t, "%"):
			name, args := splitName(t[1:])
			calls = append(calls, Call{Name: name, Args: args, Line: i + 1})
		case strings.HasPrefix(t, "!"):
			calls = append(calls, Call{Name: "!", Args: strings.TrimSpace(t[1:]), Line: i + 1, Shell: true})
		default:
			if len(calls) == 0 {
				return nil, cell
			}
			rest := strings.Repeat("\n", i) + strings.Join(lines[i:], "\n")
			if strings.TrimSpace(rest) == "" {
				return calls, ""
			}
			return calls, rest
		}
	}
	return calls, ""
}

func splitName(s string) (name, args string) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], strings.TrimSpace(s[i+1:])
	}
	return s, ""
}

// HelpQuery recognises IPython's "SYMBOL?" (and "SYMBOL??") cells and
// returns the symbol.
func HelpQuery(cell string) (symbol string, ok bool) {
	t := strings.TrimSpace(cell)
	if strings.Contains(t, "\n") || !strings.HasSuffix(t, "?") {
		return "", false
	}
	t = strings.TrimRight(t, "?")
	t = strings.TrimPrefix(t, "?")
	if t == "" {
		return "", false
	}
	for _, r := range t {
		if !(r == '.' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127) {
			return "", false
		}
	}
	return t, true
}

// Segments splits a cell at the line magics that follow complete Go code
// (complete reports whether Go source is complete), as IPython runs a line
// magic wherever it stands: "x := 1\n%time f(x)" is two segments, run in
// order. Each segment keeps its lines' numbers (it starts with as many
// newlines as lines precede it). A cell magic (%%) only ever starts a cell,
// and a % line inside incomplete code (a raw string, an open brace) is not a
// magic; such cells, and cells without a later magic, are one segment.
func Segments(cell string, complete func(src string) bool) []string {
	lines := strings.Split(cell, "\n")
	magicBlockEnd := func(i int) int { // the first line at or after i that is Go code
		for ; i < len(lines); i++ {
			t := strings.TrimSpace(lines[i])
			if t != "" && !strings.HasPrefix(t, "%") && !strings.HasPrefix(t, "!") {
				break
			}
		}
		return i
	}
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			if strings.HasPrefix(t, "%%") {
				return []string{cell}
			}
			break
		}
	}
	var segs []string
	start, goStart := 0, magicBlockEnd(0)
	for j := goStart + 1; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if !strings.HasPrefix(t, "%") || strings.HasPrefix(t, "%%") {
			continue
		}
		code := strings.Join(lines[goStart:j], "\n")
		if strings.TrimSpace(code) == "" || !complete(code) {
			continue
		}
		segs = append(segs, strings.Repeat("\n", start)+strings.Join(lines[start:j], "\n"))
		start, goStart = j, magicBlockEnd(j)
		j = goStart
	}
	if len(segs) == 0 {
		return []string{cell}
	}
	return append(segs, strings.Repeat("\n", start)+strings.Join(lines[start:], "\n"))
}
