package cells

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/program"
)

// Decl is one package-level declaration of a cell as the user wrote it
// (before any rewrite), the unit a worker program is built from: the
// declaration record's entry (program.Decl), with At.Cell left 0 (the
// session knows the cell's number).
type Decl = program.Decl

// pieceDecls lists the declarations of a parsed piece of src: those of a
// declaration, or the var declaration a statement piece holds.
func pieceDecls(src string, p *piece) []Decl {
	var out []Decl
	switch {
	case p.kind == KindDecl:
		for _, d := range p.file.Decls {
			out = append(out, declsOf(src, p, d)...)
		}
	case p.kind == KindStmt && p.span.first == token.VAR:
		for _, st := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
			if d, ok := st.(*ast.DeclStmt); ok {
				out = append(out, declsOf(src, p, d.Decl)...)
			}
		}
	}
	return out
}

func declsOf(src string, p *piece, d ast.Decl) []Decl {
	off := func(pos token.Pos) int { return p.fset.Position(pos).Offset - p.base }
	whole := func(kind string, names ...string) Decl {
		start, end := off(d.Pos()), off(d.End())
		line, col := lineCol(src, start)
		return Decl{Kind: kind, Names: names, Text: src[start:end], At: program.Origin{Line: line, Col: col}}
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
			out = append(out, Decl{Kind: kind, Names: specNames(s), Text: prefix + src[start:end], Prefix: len(prefix), At: program.Origin{Line: line, Col: col}})
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
