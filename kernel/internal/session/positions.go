package session

import (
	"fmt"

	"github.com/goaccel/goaccel/kernel/internal/cells"
	"regexp"
	"strconv"
	"strings"
)

// position matches a position in one of the session's compiled files, as
// yaegi writes it in messages.
var position = regexp.MustCompile(`(cell\d+\.go):(\d+)(?::(\d+))?`)

// at is a position in a cell of the session: its run and line and column.
type at struct {
	run       int
	Line, Col int
}

// origin maps a position in a compiled file to its cell, through the file's
// source map; ok is false for code the session wrote itself.
func (s *Session) origin(file string, line, col int) (at, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.files[file]
	if f == nil {
		return at{}, false
	}
	for _, u := range f.units {
		if u.first <= line && line <= u.last {
			o, ok := u.m.Lookup(line, col)
			if !ok {
				return at{}, false
			}
			return at{run: f.run, Line: o.Line - s.sources[f.run].shift, Col: o.Col}, true
		}
	}
	return at{}, false
}

// compileError is the cell's error for an interpreter's compile error
// (raw): at the cell line and column its position maps to. When go/types
// found an error on that line, its message (Go's own, at the culprit's
// column) explains it better than the interpreter's.
func (s *Session) compileError(raw string, run int) Result {
	s.mu.Lock()
	undefined, typeErrors := s.undefined, s.typeErrors
	s.mu.Unlock()
	if strings.Contains(raw, "definition loop") && len(undefined) > 0 {
		// yaegi's message for an undefined name in a top-level definition.
		if i := strings.LastIndex(raw, ": "); i >= 0 {
			raw = raw[:i] + ": undefined: " + strings.Join(undefined, ", ")
		}
	}
	first, found := s.firstPosition(raw, run)
	msg := s.mapPositions(raw, run)
	if te, ok := sameError(typeErrors, first, raw); found && ok {
		msg = fmt.Sprintf("line %d:%d: %s", te.Line, te.Col, te.Msg)
		first.Col = te.Col
	}
	tb := []string{"CompileError: " + msg}
	if found {
		tb = append(tb, caretLines(first.Line, max(first.Col, 1), s.lineText(run, first.Line))...)
	}
	return Result{Error: &Error{Ename: "CompileError", Evalue: msg, Traceback: tb}}
}

// sameError picks the go/types error that explains the interpreter's error
// raw at pos: one at the same line and column, else one on the line about
// the same undefined name, else the line's first.
func sameError(errs []cells.TypeError, pos at, raw string) (cells.TypeError, bool) {
	var onLine []cells.TypeError
	for _, te := range errs {
		if te.Line == pos.Line {
			if te.Col == pos.Col {
				return te, true
			}
			onLine = append(onLine, te)
		}
	}
	if m := undefinedName.FindStringSubmatch(raw); m != nil {
		for _, te := range onLine {
			if strings.Contains(te.Msg, m[1]) {
				return te, true
			}
		}
		return cells.TypeError{}, false // about another name: the interpreter's message stands
	}
	if len(onLine) > 0 {
		return onLine[0], true
	}
	return cells.TypeError{}, false
}

// undefinedName matches the name in yaegi's messages about a missing name:
// "undefined: NAME", "undefined selector: NAME", "has no symbol NAME".
var undefinedName = regexp.MustCompile(`(?:undefined(?: selector)?:|has no symbol) ([\p{L}_][\p{L}\p{N}_]*)`)

// mapPositions rewrites the compiled files' positions in msg into cell
// lines: the current cell's as "line L:C", others' as "line L of an earlier
// cell"; and redefined types' interpreter names into the user's.
func (s *Session) mapPositions(msg string, run int) string {
	msg = position.ReplaceAllStringFunc(msg, func(m string) string {
		p := position.FindStringSubmatch(m)
		line, _ := strconv.Atoi(p[2])
		col, _ := strconv.Atoi(p[3])
		o, ok := s.origin(p[1], line, col)
		switch {
		case !ok:
			return m
		case o.run != run:
			return fmt.Sprintf("line %d of an earlier cell", o.Line)
		case o.Col > 0:
			return fmt.Sprintf("line %d:%d", o.Line, o.Col)
		}
		return fmt.Sprintf("line %d", o.Line)
	})
	s.mu.Lock()
	internals := s.declared.Internals()
	for user, internal := range s.pendingRenames {
		internals[user] = internal
	}
	s.mu.Unlock()
	for user, internal := range internals {
		msg = regexp.MustCompile(`\b`+regexp.QuoteMeta(internal)+`\b`).ReplaceAllString(msg, user)
	}
	return msg
}

// firstPosition returns the first position in msg that maps to the cell of run.
func (s *Session) firstPosition(msg string, run int) (at, bool) {
	for _, p := range position.FindAllStringSubmatch(msg, -1) {
		line, _ := strconv.Atoi(p[2])
		col, _ := strconv.Atoi(p[3])
		if o, ok := s.origin(p[1], line, col); ok && o.run == run {
			return o, true
		}
	}
	return at{}, false
}

// lineText returns line (1-based) of a run's cell, as the user wrote it.
func (s *Session) lineText(run, line int) string {
	s.mu.Lock()
	src := s.sources[run]
	s.mu.Unlock()
	if src == nil {
		return ""
	}
	lines := strings.Split(src.text, "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	return lines[line-1]
}
