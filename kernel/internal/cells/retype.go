package cells

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
)

// priorTypes returns the session's types of the names the cell's top-level
// defines (x := …) define again, before the cell's type check replaces them.
func priorTypes(sc *celltypes.Scope, pieces []*piece) map[string]types.Type {
	out := map[string]types.Type{}
	for _, p := range pieces {
		for _, id := range topDefines(p) {
			if obj := sc.Lookup(id.Name); obj != nil {
				if v, ok := obj.(*types.Var); ok {
					out[id.Name] = v.Type()
				}
			}
		}
	}
	return out
}

// topDefines returns the names a statement piece's top-level := defines.
func topDefines(p *piece) []*ast.Ident {
	if p.kind != KindStmt {
		return nil
	}
	var out []*ast.Ident
	for _, st := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
		if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					out = append(out, id)
				}
			}
		}
	}
	return out
}

// retypedAfterUse refuses a top-level x := … that gives x, a variable of
// the session, another type after an earlier statement of the cell used x:
// yaegi defines a cell's top-level variables before running it, so the
// earlier statement would see the new type (main's b := new([100]int) after
// its uses of a package-level b, once main's body is a cell).
func (cx *cellScope) retypedAfterUse(pieces []*piece, prior map[string]types.Type) error {
	if cx.info == nil || len(prior) == 0 {
		return nil
	}
	used := map[string]bool{}
	for _, p := range pieces {
		for _, id := range topDefines(p) {
			old := prior[id.Name]
			obj := cx.info.Defs[id]
			if old == nil || obj == nil || !used[id.Name] || types.Identical(old, obj.Type()) {
				continue
			}
			if splittable(pieces, p) {
				return &SplitError{Offset: p.span.start, Name: id.Name}
			}
			ed := &edits{src: cx.src, base: p.base, fset: p.fset}
			return cx.unsupported(ed, id.Pos(), fmt.Sprintf("%s := … after a use of %s in the same cell, giving it another type (%s, not %s)", id.Name, id.Name, obj.Type(), old),
				"the interpreter gives a cell's top-level variable one type for the whole cell: use another name, or define it in a cell of its own")
		}
		if p.kind == KindStmt || p.kind == KindExpr {
			for _, id := range p.file.Unresolved {
				used[id.Name] = true
			}
		}
	}
	return nil
}

// SplitError asks the caller to run the cell as two evaluations, the second
// from byte Offset on: its statement gives Name, a variable of the session
// that earlier statements of the cell used, another type. Run as two, the
// statements before see the old variable, as in a function where the define
// would shadow a package-level one (main's b := new([100]int) after uses of
// the program's b, once main's body is a cell).
type SplitError struct {
	Offset int
	Name   string
}

func (e *SplitError) Error() string {
	return fmt.Sprintf("%s := … after a use of %s in the same cell, giving it another type, is not supported here (goaccel runs such a cell in two parts, the second from byte %d, only when nothing wraps it); use another name", e.Name, e.Name, e.Offset)
}

// splittable reports whether a cell can run as two evaluations before piece
// at: it holds only statements (a declaration may be used before it is
// written), and none runs the rest of the cell in a function (tail.go).
// (The session keeps the first part's deferred calls for the cell's end.)
func splittable(pieces []*piece, at *piece) bool {
	if at.tail {
		return false
	}
	for _, p := range pieces {
		if p.kind != KindImport && p.kind != KindStmt && p.kind != KindExpr || p.tail {
			return false
		}
	}
	return true
}

// genericResultsUsed asks for a split (SplitError) before a top-level
// statement that defines several values from a call of a variable the cell
// defined, with several others, from a generic call: yaegi types such a
// define (next, stop := iter.Pull(seq)) only when it runs, so in the same
// evaluation v, ok := next() finds a function of no results.
func (cx *cellScope) genericResultsUsed(pieces []*piece) error {
	if cx.info == nil {
		return nil
	}
	fromGeneric := map[string]bool{}
	for _, p := range pieces {
		if p.kind != KindStmt {
			continue
		}
		for _, st := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
			as, ok := st.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) < 2 || len(as.Rhs) != 1 {
				continue
			}
			call, ok := unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok {
				continue
			}
			if id := calleeIdent(call.Fun); id != nil && fromGeneric[id.Name] && splittable(pieces, p) {
				return &SplitError{Offset: p.span.start, Name: id.Name}
			}
			if cx.callsGenericFunc(call) {
				for _, l := range as.Lhs {
					if lid, ok := l.(*ast.Ident); ok && lid.Name != "_" {
						fromGeneric[lid.Name] = true
					}
				}
			}
		}
	}
	return nil
}

// calleeIdent is the identifier naming a call's function: f, pkg.F, F[T]
// or pkg.F[T].
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch f := unparen(fun).(type) {
	case *ast.Ident:
		return f
	case *ast.SelectorExpr:
		return f.Sel
	case *ast.IndexExpr:
		return calleeIdent(f.X)
	case *ast.IndexListExpr:
		return calleeIdent(f.X)
	}
	return nil
}

// callsGenericFunc reports whether call calls a generic function (the type
// check's view).
func (cx *cellScope) callsGenericFunc(call *ast.CallExpr) bool {
	id := calleeIdent(call.Fun)
	if id == nil {
		return false
	}
	fn, ok := cx.info.Uses[id].(*types.Func)
	return ok && fn.Type().(*types.Signature).TypeParams().Len() > 0
}
