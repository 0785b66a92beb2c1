package cells

import (
	"go/scanner"
	"go/token"
	"strings"
)

// span is one top-level piece of a cell, as byte offsets into the cell.
type span struct {
	start, end int
	first      token.Token // the span's first token
	second     token.Token // the token after it (ILLEGAL when none)
}

// splitTopLevel cuts src at the semicolons (written or implied by a newline)
// that sit outside any bracket, the boundaries between Go's top-level
// statements and declarations.
func splitTopLevel(src string) ([]span, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(file, []byte(src), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)

	var spans []span
	depth := 0
	header := -1 // depth of a for/if/switch whose header (with its own semicolons) is being read
	cur := span{start: -1}
	for {
		pos, tok, lit := s.Scan()
		off := file.Offset(pos)
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.FOR, token.IF, token.SWITCH:
			if header < 0 {
				header = depth
			}
		case token.LBRACE:
			if header == depth {
				header = -1
			}
			depth++
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		if tok == token.SEMICOLON && depth <= 0 && header < 0 {
			if cur.start >= 0 {
				spans = append(spans, cur)
			}
			cur = span{start: -1}
			continue
		}
		if cur.start < 0 {
			cur = span{start: off, first: tok, second: token.ILLEGAL}
		} else if cur.second == token.ILLEGAL {
			cur.second = tok
		}
		cur.end = off + tokenLen(tok, lit)
	}
	if cur.start >= 0 {
		spans = append(spans, cur)
	}
	if len(errs) > 0 {
		return spans, errs
	}
	return spans, nil
}

func tokenLen(tok token.Token, lit string) int {
	if lit != "" {
		if tok == token.SEMICOLON && lit == "\n" {
			return 0
		}
		return len(lit)
	}
	return len(tok.String())
}

// lineCol returns the 1-based line and column of byte offset off in src.
func lineCol(src string, off int) (line, col int) {
	before := src[:off]
	line = strings.Count(before, "\n") + 1
	col = off - strings.LastIndex(before, "\n")
	return line, col
}

func fileFor(src string) *token.File {
	return token.NewFileSet().AddFile("cell", -1, len(src))
}
