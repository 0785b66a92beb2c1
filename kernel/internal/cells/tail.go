package cells

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
)

// A cell's statements are main's body to a user who pastes a program in
// two cells: a return ends the cell, and a goto jumps to a label of the
// cell. yaegi runs neither at the top level of an evaluation (a return there
// crashes it, a goto is not implemented), so the statements from the first
// one holding a return or a goto to the cell's end run as one function
// literal called at once. The variables they define at the top level are
// declared before it, with the types the type check gave them, and assigned
// inside it, so that later cells see them as if the cell had run them at the
// top level.

// endsCell reports whether a top-level statement holds a return or a goto
// (outside function literals), so that it and the statements after it must
// run in a function.
func endsCell(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		case *ast.BranchStmt:
			if n.Tok == token.GOTO {
				found = true
			}
		}
		return !found
	})
	return found
}

// mergeTail replaces the pieces from the first statement that holds a
// return or a goto to the last by one statement piece marked tail.
// Declarations after that statement are refused: they would have to leave
// the function.
func mergeTail(fset *token.FileSet, src string, spans []span, pieces []*piece) ([]*piece, error) {
	// A goto's label must be inside the function too, also when it comes
	// before the goto.
	targets := map[string]bool{}
	for _, p := range pieces {
		if p.kind == KindStmt {
			ast.Inspect(p.file.Decls[0].(*ast.FuncDecl).Body, func(n ast.Node) bool {
				if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil {
					targets[b.Label.Name] = true
				}
				_, lit := n.(*ast.FuncLit)
				return !lit
			})
		}
	}
	k := -1
	for i, p := range pieces {
		if p.kind != KindStmt && p.kind != KindExpr {
			continue
		}
		for _, st := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
			if l, ok := st.(*ast.LabeledStmt); (ok && targets[l.Label.Name]) || endsCell(st) {
				k = i
				break
			}
		}
		if k >= 0 {
			break
		}
	}
	if k < 0 {
		return pieces, nil
	}
	for i, p := range pieces[k:] {
		if p.kind == KindExpr {
			es := p.file.Decls[0].(*ast.FuncDecl).Body.List[0].(*ast.ExprStmt)
			if _, call := unparen(es.X).(*ast.CallExpr); !call || i == 0 {
				line, col := lineCol(src, p.span.start)
				return nil, &UnsupportedError{Line: line, Col: col,
					Construct: "a value to show after a top-level return or goto",
					Hint:      "goaccel runs a cell's statements from the first return or goto on in a function, which shows no value; show it in the next cell"}
			}
		}
		if p.kind == KindDecl || p.kind == KindImport {
			line, col := lineCol(src, p.span.start)
			return nil, &UnsupportedError{Line: line, Col: col,
				Construct: "a declaration after a top-level return or goto",
				Hint:      "goaccel runs a cell's statements from the first return or goto on in a function; put the declarations before them, or in a cell of their own"}
		}
	}
	sp := spans[k]
	sp.end = spans[len(spans)-1].end
	p, err := parsePiece(fset, src, sp, KindStmt, stmtPrefix, "\n}")
	if err != nil {
		return nil, err
	}
	p.tail = true
	return append(pieces[:k:k], p), nil
}

// wrapTail runs a tail piece's statements in a function literal called at
// once, its top-level variables declared before it.
func (cx *cellScope) wrapTail(p *piece, ed *edits) error {
	body := p.file.Decls[0].(*ast.FuncDecl).Body.List
	var hoisted []string
	declare := func(id *ast.Ident) error {
		obj, ok := cx.info.Defs[id].(*types.Var)
		if !ok || obj == nil {
			return nil // assigned, not defined
		}
		if old, ok := cx.tailPrior[id.Name]; ok && types.Identical(old, obj.Type()) {
			return nil // the session's variable already; = assigns it
		}
		t, ok := cx.namer.Source(obj.Type())
		if !ok {
			return cx.unsupported(ed, id.Pos(), fmt.Sprintf("%s, of type %s, defined after a top-level return or goto", id.Name, obj.Type()),
				"goaccel declares such a variable before the statements it runs in a function, and cannot write its type; define it before the return or goto")
		}
		hoisted = append(hoisted, "var "+id.Name+" "+t+"; ")
		return nil
	}
	if cx.info == nil {
		return cx.unsupported(ed, body[0].Pos(), "return or goto at the top level of a cell that does not type-check", "fix the cell's other errors first")
	}
	var hoist func(st ast.Stmt) error
	hoist = func(st ast.Stmt) error {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE {
				return nil
			}
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					if err := declare(id); err != nil {
						return err
					}
				}
			}
			at := ed.off(st.TokPos)
			ed.add(at, at+len(":="), "=")
		case *ast.DeclStmt:
			g := st.Decl.(*ast.GenDecl)
			if g.Tok != token.VAR {
				return cx.unsupported(ed, st.Pos(), fmt.Sprintf("a %s declaration after a top-level return or goto", g.Tok),
					"goaccel runs a cell's statements from the first return or goto on in a function; declare it before them")
			}
			var assigns []any
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				var names []string
				for _, n := range vs.Names {
					if err := declare(n); err != nil {
						return err
					}
					names = append(names, n.Name)
				}
				if len(assigns) > 0 {
					assigns = append(assigns, "; ")
				}
				if len(vs.Values) == 0 {
					// Zero at each pass, as the declaration (a goto may come back).
					var zeros []string
					for _, n := range vs.Names {
						t, _ := cx.namer.Source(cx.info.Defs[n].Type())
						zeros = append(zeros, "*new("+t+")")
					}
					assigns = append(assigns, strings.Join(names, ", ")+" = "+strings.Join(zeros, ", "))
					continue
				}
				vals := ed.textWith(ed.off(vs.Values[0].Pos()), ed.off(vs.Values[len(vs.Values)-1].End()))
				assigns = append(assigns, strings.Join(names, ", ")+" = ", vals)
			}
			ed.add(ed.off(st.Pos()), ed.off(st.End()), assigns...)
		case *ast.LabeledStmt:
			return hoist(st.Stmt)
		}
		return nil
	}
	for i, st := range body {
		if start := ed.off(st.Pos()); i > 0 && cx.markLines {
			line, _ := lineCol(ed.src, start)
			ed.add(start, start, fmt.Sprintf("%s = %d; ", LineVar, line))
		}
		if err := hoist(st); err != nil {
			return err
		}
	}
	start, end := ed.off(body[0].Pos()), ed.off(body[len(body)-1].End())
	ed.add(start, end, strings.Join(hoisted, ""), "func() { ", ed.textWith(start, end), " }()")
	return nil
}

// tailPrior returns the session's types of the variables a tail piece
// defines, before the cell's type check declares them again.
func tailPrior(sc *celltypes.Scope, pieces []*piece) map[string]types.Type {
	out := map[string]types.Type{}
	for _, p := range pieces {
		if !p.tail {
			continue
		}
		var u Unit
		u.Kinds, u.Methods = map[string]string{}, map[string][]string{}
		(&cellScope{}).unitNames(p, &u)
		for _, n := range u.Names {
			if v, ok := sc.Lookup(n).(*types.Var); ok {
				out[n] = v.Type()
			}
		}
	}
	return out
}
