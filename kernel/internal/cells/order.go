package cells

import (
	"go/ast"
	"go/token"
)

// deps is what one unit defines at the package level and the identifiers
// it refers to that it does not define locally.
type deps struct {
	defs, uses map[string]bool
}

// unitDeps collects u's package-level names (a method counts as defining
// its receiver type, so that a statement using the type runs after the
// type's methods) and the identifiers p's code refers to. Uses are an
// over-approximation: every identifier except selectors' right-hand sides
// and names the piece declares inside itself (parameters, locals, fields).
func unitDeps(u Unit, p *piece) deps {
	d := deps{defs: map[string]bool{}, uses: map[string]bool{}}
	for _, n := range u.Names {
		d.defs[n] = true
	}
	for recv := range u.Methods {
		d.defs[recv] = true
	}
	local := map[string]bool{}
	sel := map[*ast.Ident]bool{}
	addLocal := func(ids ...*ast.Ident) {
		for _, id := range ids {
			if id != nil && !d.defs[id.Name] {
				local[id.Name] = true
			}
		}
	}
	inspect := func(f func(ast.Node) bool) {
		for _, d := range p.file.Decls { // not the file's package name
			ast.Inspect(d, f)
		}
	}
	inspect(func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			sel[n.Sel] = true
		case *ast.Field:
			addLocal(n.Names...)
		case *ast.ValueSpec:
			addLocal(n.Names...)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						addLocal(id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						addLocal(id)
					}
				}
			}
		}
		return true
	})
	inspect(func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !sel[id] && !local[id.Name] && id.Name != "_" {
			d.uses[id.Name] = true
		}
		return true
	})
	return d
}

// order returns the indexes of units in an order that respects their
// dependencies: statements (and the final expression) keep their order, a
// declaration runs before the first unit that uses what it declares and
// after the units that define what it uses, and two units defining the same
// name keep their order. Among units free to go, the earlier one in the cell
// goes first. If the constraints form a cycle, the cell's order is kept.
func order(units []Unit, ds []deps) []int {
	n := len(units)
	after := make([][]int, n) // after[i]: units that must run after i
	indeg := make([]int, n)
	edge := func(from, to int) {
		after[from] = append(after[from], to)
		indeg[to]++
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			switch {
			case units[i].Kind != KindDecl && units[j].Kind != KindDecl,
				meets(ds[i].defs, ds[j].defs, nil),
				meets(ds[j].uses, ds[i].defs, nil):
				edge(i, j)
			case meets(ds[i].uses, ds[j].defs, ds[i].defs):
				edge(j, i)
			}
		}
	}
	out := make([]int, 0, n)
	done := make([]bool, n)
	for len(out) < n {
		next := -1
		for i := 0; i < n; i++ {
			if !done[i] && indeg[i] == 0 {
				next = i
				break
			}
		}
		if next < 0 { // a cycle: keep the cell's order
			out = out[:0]
			for i := range units {
				out = append(out, i)
			}
			return out
		}
		done[next] = true
		out = append(out, next)
		for _, j := range after[next] {
			indeg[j]--
		}
	}
	return out
}

// meets reports whether a and b share a name that is not in except.
func meets(a, b, except map[string]bool) bool {
	for k := range a {
		if b[k] && !except[k] {
			return true
		}
	}
	return false
}
