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
