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
			return fmt.Sprintf("line %d:%d", line-1, s.userColumn(file, line-1, col))
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

// userColumn undoes the shift the line markers put on a column of a cell line.
func (s *Session) userColumn(file string, line, col int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	shift := 0
	for _, m := range s.markers[file] {
		if m.line == line && m.col+m.n <= col {
			shift += m.n
		}
	}
	return col - shift
}
