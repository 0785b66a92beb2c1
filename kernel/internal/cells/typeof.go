package cells

import (
	"go/ast"
	"go/types"
)

// typeOf returns the type go/types gave e, or nil when it has none (an
// expression that does not type-check, or code the check did not see).
func (cx *cellScope) typeOf(e ast.Expr) types.Type {
	if cx.info == nil {
		return nil
	}
	tv, ok := cx.info.Types[e]
	if !ok || tv.Type == nil {
		return nil
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.Invalid {
		return nil
	}
	return tv.Type
}

// isInteger reports whether t is an integer type (or an untyped integer
// constant's).
func isInteger(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// iteratorParams reports whether t is a function iterator,
// func(yield func(P…) bool), and returns yield's parameter types.
func iteratorParams(t types.Type) ([]types.Type, bool) {
	if t == nil {
		return nil, false
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return nil, false
	}
	yield, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok || yield.Results().Len() != 1 || !types.Identical(yield.Results().At(0).Type(), types.Typ[types.Bool]) {
		return nil, false
	}
	params := make([]types.Type, yield.Params().Len())
	for i := range params {
		params[i] = yield.Params().At(i).Type()
	}
	return params, true
}

// typeSource writes t as Go source for the cell: through the cell's import
// names, with redefined types under their interpreter names; ok is false
// when t has no source form outside where it was declared.
func (cx *cellScope) typeSource(t types.Type) (string, bool) {
	if t == nil || cx.namer == nil {
		return "", false
	}
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	return cx.namer.Source(t)
}

// unparen strips parentheses.
func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// selectorChain reports whether e is a.b.c: evaluating it calls nothing.
func selectorChain(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return selectorChain(e.X)
	}
	return false
}
