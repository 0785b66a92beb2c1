package repl

import (
	"fmt"
	"go/scanner"
	"go/token"
	"regexp"
	"strconv"
	"strings"
)

// position matches a yaegi source position in one of the session's cell files.
var position = regexp.MustCompile(`(cell\d+\.go):(\d+):(\d+)`)

// mapPositions rewrites yaegi positions in msg into cell lines: the current
// cell's as "line L:C", others as "line L of an earlier cell".
func (s *Session) mapPositions(msg, file string) string {
	msg = position.ReplaceAllStringFunc(msg, func(m string) string {
		p := position.FindStringSubmatch(m)
		line, _ := strconv.Atoi(p[2])
		if p[1] == file {
			col, _ := strconv.Atoi(p[3])
			return fmt.Sprintf("line %d:%d", line-1, s.userColumn(file, line-1, col, msg))
		}
		return fmt.Sprintf("line %d of an earlier cell", line-1)
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	for user, internal := range s.renamed {
		msg = regexp.MustCompile(`\b`+regexp.QuoteMeta(internal)+`\b`).ReplaceAllString(msg, user)
	}
	return msg
}

// firstPosition returns the cell line and user column of the first position
// in msg that is in file; line is 0 if there is none.
func (s *Session) firstPosition(msg, file string) (line, col int) {
	for _, p := range position.FindAllStringSubmatch(msg, -1) {
		if p[1] == file {
			line, _ = strconv.Atoi(p[2])
			col, _ = strconv.Atoi(p[3])
			return line - 1, s.userColumn(file, line-1, col, msg)
		}
	}
	return 0, 0
}

// lineText returns line (1-based) of a cell file's source.
func (s *Session) lineText(file string, line int) string {
	s.mu.Lock()
	src := s.sources[file]
	s.mu.Unlock()
	lines := strings.Split(src, "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}

// sourceLines formats a cell line for a traceback, with a caret under col.
func (s *Session) sourceLines(file string, line, col int) []string {
	return []string{
		fmt.Sprintf("%4d | %s", line, s.lineText(file, line)),
		fmt.Sprintf("     | %s^", strings.Repeat(" ", max(col-1, 0))),
	}
}

// undefinedName matches the name in yaegi's messages about a missing name:
// "undefined: NAME", "undefined selector: NAME", "has no symbol NAME".
var undefinedName = regexp.MustCompile(`(?:undefined(?: selector)?:|has no symbol) ([\p{L}_][\p{L}\p{N}_]*)`)

// userColumn maps yaegi's column on a cell line to the column in the user's
// text. yaegi's column is in the compiled text (after line markers and
// rewrites such as range over an int) and often names the enclosing
// statement rather than the culprit, so the column is anchored on a word of
// the user's line: the missing name msg reports, else the token yaegi points
// at in the compiled line, searched from the marker-corrected column.
func (s *Session) userColumn(file string, line, col int, msg string) int {
	s.mu.Lock()
	shift := 0
	for _, m := range s.markers[file] {
		if m.line == line && m.col+m.n <= col {
			shift += m.n
		}
	}
	compiled := strings.Split(s.compiled[file], "\n")
	s.mu.Unlock()
	user := s.lineText(file, line)
	hint := col - shift
	word := ""
	if m := undefinedName.FindStringSubmatch(msg); m != nil {
		word = m[1]
	} else if line < len(compiled) {
		word = tokenAt(compiled[line], col-1)
		if hint >= 1 && strings.HasPrefix(user[min(hint-1, len(user)):], word) && word != "" {
			return hint
		}
	}
	if at := findWord(user, word, hint-1); at >= 0 {
		return at + 1
	}
	return max(1, min(hint, len(user)+1))
}

// tokenAt returns the source of the Go token that covers byte i of one line
// of text, or "".
func tokenAt(text string, i int) string {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(text))
	var sc scanner.Scanner
	sc.Init(f, []byte(text), func(token.Position, string) {}, 0)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			return ""
		}
		off := f.Offset(pos)
		n := len(lit)
		if lit == "" || tok == token.SEMICOLON {
			lit, n = tok.String(), len(tok.String())
		}
		if off > i {
			return ""
		}
		if i < off+n {
			return lit
		}
	}
}

// findWord returns the byte offset of word in text (as a whole word if it
// is an identifier): the first at or after from if there is one, else the
// first; -1 if none.
func findWord(text, word string, from int) int {
	if word == "" {
		return -1
	}
	ident := isWordByte(word[0])
	first := -1
	for i := 0; i+len(word) <= len(text); i++ {
		if text[i:i+len(word)] != word || ident && (i > 0 && isWordByte(text[i-1]) || i+len(word) < len(text) && isWordByte(text[i+len(word)])) {
			continue
		}
		if i >= from {
			return i
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
