package cells

import (
	"go/ast"
	"go/token"
	"sort"

	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
)

// TypeError is what go/types found wrong in a cell, at a cell position. The
// interpreter decides whether a cell runs; a TypeError explains an
// interpreter's error on the same line better than the interpreter does.
type TypeError struct {
	Line, Col int
	Msg       string
}

// typeCheck checks the cell's pieces against the session with go/types and
// keeps what it found (cx.info). Each piece becomes a file of the session
// package with the imports the cell sees: a declaration piece as it is, a
// top-level x := e as var x = e, another statement as the body of an init
// function, so that the cell's statements see the session's and the cell's
// package-level names, and later cells see x.
func (cx *cellScope) typeCheck(sc *celltypes.Scope, pieces []*piece, imports [][2]string) []TypeError {
	var files []*ast.File
	var declares []string
	methods := false
	defined := map[string]bool{}
	for _, p := range pieces {
		if p.kind == KindImport {
			continue
		}
		f := &ast.File{Name: ast.NewIdent("main"), FileStart: p.file.FileStart, FileEnd: p.file.FileEnd, Package: p.file.Package}
		if p.kind == KindDecl {
			for _, d := range p.file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil {
					methods = true
				}
			}
			f.Decls = append(f.Decls, p.file.Decls...)
		} else if p.tail {
			f.Decls = append(f.Decls, tailDecls(p.file.Decls[0].(*ast.FuncDecl).Body.List, defined)...)
		} else {
			for _, st := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
				f.Decls = append(f.Decls, checkDecl(st, defined))
			}
		}
		celltypes.AddImports(f, imports)
		files = append(files, f)
	}
	for n := range cx.names {
		declares = append(declares, n)
	}
	sort.Strings(declares)
	checked := sc.Check(files, declares, methods)
	cx.info, cx.pkg = checked.Info, checked.Package
	byFile := map[*token.File]*piece{}
	for _, p := range pieces {
		byFile[p.fset.File(p.file.Pos())] = p
	}
	var out []TypeError
	for _, e := range checked.Errors {
		p := byFile[e.Fset.File(e.Pos)]
		if p == nil {
			continue // an error in the session's own declarations
		}
		line, col := lineCol(cx.src, e.Fset.Position(e.Pos).Offset-p.base)
		out = append(out, TypeError{Line: line, Col: col, Msg: e.Msg})
	}
	return out
}

// checkDecl turns a top-level statement into a package-level declaration for
// the type check: x, y := e becomes var x, y = e (a name an earlier
// statement of the cell defined becomes _), a declaration stays itself, and
// anything else becomes func init() { statement }.
func checkDecl(st ast.Stmt, defined map[string]bool) ast.Decl {
	switch st := st.(type) {
	case *ast.DeclStmt:
		return st.Decl
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			spec := &ast.ValueSpec{Values: st.Rhs}
			for _, l := range st.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok || defined[id.Name] {
					id = &ast.Ident{NamePos: l.Pos(), Name: "_"}
				}
				defined[id.Name] = true
				spec.Names = append(spec.Names, id)
			}
			return &ast.GenDecl{TokPos: st.Pos(), Tok: token.VAR, Specs: []ast.Spec{spec}}
		}
	}
	body := &ast.BlockStmt{Lbrace: st.Pos(), List: []ast.Stmt{st}, Rbrace: st.End()}
	return &ast.FuncDecl{Name: &ast.Ident{NamePos: st.Pos(), Name: "init"}, Type: &ast.FuncType{Func: st.Pos(), Params: &ast.FieldList{}}, Body: body}
}

// tailDecls is checkDecl for the statements of a tail piece (tail.go), which
// run in one function: their defines and var declarations become
// package-level variables, as goaccel declares them before the function,
// and the other statements one init function, where their labels, gotos
// and returns are resolved together. A labeled define leaves its label on
// an empty statement.
func tailDecls(body []ast.Stmt, defined map[string]bool) []ast.Decl {
	var decls []ast.Decl
	var rest []ast.Stmt
	for _, st := range body {
		inner, label := st, (*ast.LabeledStmt)(nil)
		if l, ok := st.(*ast.LabeledStmt); ok {
			inner, label = l.Stmt, l
		}
		switch in := inner.(type) {
		case *ast.DeclStmt:
			decls = append(decls, in.Decl)
		case *ast.AssignStmt:
			if in.Tok != token.DEFINE {
				rest = append(rest, st)
				continue
			}
			decls = append(decls, checkDecl(in, defined))
		default:
			rest = append(rest, st)
			continue
		}
		if label != nil {
			rest = append(rest, &ast.LabeledStmt{Label: label.Label, Colon: label.Colon, Stmt: &ast.EmptyStmt{Semicolon: inner.Pos(), Implicit: true}})
		}
	}
	if len(rest) > 0 {
		pos := rest[0].Pos()
		body := &ast.BlockStmt{Lbrace: pos, List: rest, Rbrace: rest[len(rest)-1].End()}
		decls = append(decls, &ast.FuncDecl{Name: &ast.Ident{NamePos: pos, Name: "init"}, Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}}, Body: body})
	}
	return decls
}
