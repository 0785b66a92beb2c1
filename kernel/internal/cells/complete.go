package cells

import (
	"errors"
	"go/scanner"
	"strings"
)

// IsComplete reports whether a cell can run as typed: "complete",
// "incomplete" (the user is still typing a block or expression; indent is the
// indentation for the next line) or "invalid" (a syntax error more input
// cannot fix).
func IsComplete(src string) (status, indent string) {
	if strings.TrimSpace(src) == "" {
		return "complete", ""
	}
	if first := strings.TrimSpace(src); strings.HasPrefix(first, "%") || strings.HasPrefix(first, "!") {
		if strings.HasPrefix(first, "%%") && !strings.HasSuffix(src, "\n\n") {
			return "incomplete", ""
		}
		return "complete", ""
	}
	_, err := Parse(src, nil)
	if err == nil {
		return "complete", ""
	}
	var se *SyntaxError
	if !errors.As(err, &se) {
		return "complete", "" // valid Go that a later stage refuses: let execution say why
	}
	open := openBrackets(src)
	if open < 0 {
		return "invalid", ""
	}
	pastEnd := se.Line > strings.Count(src, "\n")+1
	if open > 0 || pastEnd || strings.Contains(se.Msg, "EOF") || strings.Contains(se.Msg, "end of the cell") ||
		strings.Contains(se.Msg, "not terminated") {
		return "incomplete", strings.Repeat("\t", open)
	}
	return "invalid", ""
}

// openBrackets counts the brackets left open at the end of src, or -1 when
// some closing bracket has no opening one.
func openBrackets(src string) int {
	var s scanner.Scanner
	s.Init(fileFor(src), []byte(src), nil, 0)
	depth := 0
	for {
		_, tok, _ := s.Scan()
		switch tok.String() {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth < 0 {
				return -1
			}
		case "EOF":
			return depth
		}
	}
}
