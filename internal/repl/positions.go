package repl

import (
	"fmt"
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

// firstLine returns the cell line of the first position in msg that is in file.
func (s *Session) firstLine(msg, file string) int {
	for _, p := range position.FindAllStringSubmatch(msg, -1) {
		if p[1] == file {
			line, _ := strconv.Atoi(p[2])
			return line - 1
		}
	}
	return 0
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

// sourceLine formats a cell line for a traceback.
func (s *Session) sourceLine(file string, line int) string {
	return fmt.Sprintf("%4d | %s", line, s.lineText(file, line))
}

// undefinedName matches the name in yaegi's "undefined: NAME" messages.
var undefinedName = regexp.MustCompile(`undefined: ([\p{L}_][\p{L}\p{N}_]*)`)

// userColumn maps yaegi's column on a cell line to the column in the user's
// text. yaegi's column is in the compiled text (after line markers and
// rewrites such as range over an int) and often names the enclosing
// statement rather than the culprit, so the column is anchored on a word of
// the user's line: the undefined name msg reports, else the word yaegi points
// at, searched from the marker-corrected column.
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
		word = wordAt(compiled[line], col-1)
		if hint >= 1 && strings.HasPrefix(user[min(hint-1, len(user)):], word) && word != "" {
			return hint
		}
	}
	if at := findWord(user, word, hint-1); at >= 0 {
		return at + 1
	}
	return max(1, min(hint, len(user)+1))
}

// wordAt returns the identifier that covers byte i of text, or "".
func wordAt(text string, i int) string {
	if i < 0 || i >= len(text) || !isWordByte(text[i]) {
		return ""
	}
	start, end := i, i
	for start > 0 && isWordByte(text[start-1]) {
		start--
	}
	for end < len(text) && isWordByte(text[end]) {
		end++
	}
	return text[start:end]
}

// findWord returns the byte offset of word as a whole word in text, the
// first at or after from if there is one, else the first; -1 if none.
func findWord(text, word string, from int) int {
	if word == "" {
		return -1
	}
	first := -1
	for i := 0; i+len(word) <= len(text); i++ {
		if text[i:i+len(word)] != word || (i > 0 && isWordByte(text[i-1])) || (i+len(word) < len(text) && isWordByte(text[i+len(word)])) {
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
