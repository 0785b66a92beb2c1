package cells

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Decl is one package-level declaration of a cell as the user wrote it
// (before any rewrite), the unit a worker program is built from.
type Decl struct {
	// Kind is "func", "method", "type", "const" or "var".
	Kind string
	// Names are the names the declaration introduces; a method's is
	// "Recv.Method" with the receiver's base type name.
	Names []string
	// Text is the declaration's source. A spec taken out of a grouped type or
	// var declaration gets its keyword back: Text starts with Prefix bytes
	// ("type ", "var ") that the cell does not have at Line:Col.
	Text   string
	Prefix int
	// Line and Col are where the user's part of Text starts in the cell.
	Line, Col int
}

// Declarations lists the package-level func, method, type, const and var
// declarations of a cell in the order written, with their original text.
// Imports and statements (including top-level :=) are not declarations.
// Grouped type and var declarations are split into one Decl per spec (each
// stands alone at the package level); a grouped const declaration stays
// whole, since iota and implicit repetition tie its specs together.
func Declarations(src string) ([]Decl, error) {
	spans, err := splitTopLevel(src)
	if err != nil {
		return nil, syntaxError(err)
	}
	var out []Decl
	for _, sp := range spans {
		switch sp.first {
		case token.TYPE, token.CONST, token.VAR:
		case token.FUNC:
			if sp.second != token.IDENT && sp.second != token.LPAREN {
				continue // a function literal statement
			}
		default:
			continue
		}
		p, err := parsePiece(token.NewFileSet(), src, sp, KindDecl, declPrefix, "")
		if err != nil {
			if sp.first == token.FUNC && sp.second == token.LPAREN {
				continue // (func(){ ... })() style statements start like a method
			}
			return nil, err
		}
		for _, d := range p.file.Decls {
			out = append(out, declsOf(src, p, d)...)
		}
	}
	return out, nil
}

func declsOf(src string, p *piece, d ast.Decl) []Decl {
	off := func(pos token.Pos) int { return p.fset.Position(pos).Offset - p.base }
	whole := func(kind string, names ...string) Decl {
		start, end := off(d.Pos()), off(d.End())
		line, col := lineCol(src, start)
		return Decl{Kind: kind, Names: names, Text: src[start:end], Line: line, Col: col}
	}
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []Decl{whole("func", d.Name.Name)}
		}
		if len(d.Recv.List) != 1 {
			return nil
		}
		return []Decl{whole("method", ReceiverBase(d.Recv.List[0].Type)+"."+d.Name.Name)}
	case *ast.GenDecl:
		kind := strings.ToLower(d.Tok.String())
		if d.Tok == token.CONST || !d.Lparen.IsValid() {
			var names []string
			for _, s := range d.Specs {
				names = append(names, specNames(s)...)
			}
			return []Decl{whole(kind, names...)}
		}
		var out []Decl
		for _, s := range d.Specs {
			start, end := off(s.Pos()), off(s.End())
			line, col := lineCol(src, start)
			prefix := kind + " "
			out = append(out, Decl{Kind: kind, Names: specNames(s), Text: prefix + src[start:end], Prefix: len(prefix), Line: line, Col: col})
		}
		return out
	}
	return nil
}

func specNames(s ast.Spec) []string {
	var out []string
	switch s := s.(type) {
	case *ast.TypeSpec:
		out = append(out, s.Name.Name)
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.Name != "_" {
				out = append(out, n.Name)
			}
		}
	}
	return out
}

// ReceiverBase returns the type name of a method receiver expression: T for
// T, *T, T[K] and *T[K].
func ReceiverBase(recv ast.Expr) string {
	s := strings.TrimLeft(types.ExprString(recv), "*")
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	return s
}
