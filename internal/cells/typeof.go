package cells

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// typeOf returns Go source for the type of e when the source shows it: a
// literal, a conversion, len/cap, a variable whose declaration in this cell
// or an earlier one states or implies its type, or a call of a function whose
// result type is declared. "" means unknown; rewrites that need a type then
// leave the code alone or report it.
func (cx *cellScope) typeOf(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT:
			return "int"
		case token.FLOAT:
			return "float64"
		case token.STRING:
			return "string"
		case token.CHAR:
			return "rune"
		case token.IMAG:
			return "complex128"
		}
	case *ast.ParenExpr:
		return cx.typeOf(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			if t := cx.typeOf(e.X); t != "" {
				return "*" + t
			}
			return ""
		}
		if e.Op == token.NOT {
			return "bool"
		}
		if e.Op == token.ARROW {
			return elemOf(cx.typeOf(e.X), "<-chan ", "chan ")
		}
		return cx.typeOf(e.X)
	case *ast.StarExpr:
		return strings.TrimPrefix(cx.typeOf(e.X), "*")
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return "bool"
		case token.SHL, token.SHR:
			return cx.typeOf(e.X)
		}
		_, xlit := constArg(e.X)
		if t := cx.typeOf(e.Y); t != "" && xlit {
			return t
		}
		if t := cx.typeOf(e.X); t != "" {
			return t
		}
		return cx.typeOf(e.Y)
	case *ast.CompositeLit:
		if e.Type != nil {
			return types.ExprString(e.Type)
		}
	case *ast.FuncLit:
		return types.ExprString(e.Type)
	case *ast.IndexExpr:
		t := cx.typeOf(e.X)
		switch {
		case t == "string":
			return "byte"
		case strings.HasPrefix(t, "[]"):
			return t[2:]
		case strings.HasPrefix(t, "map["):
			return mapValue(t)
		}
	case *ast.SliceExpr:
		return cx.typeOf(e.X)
	case *ast.CallExpr:
		return cx.callType(e)
	case *ast.SelectorExpr:
		if fields := cx.structs[strings.TrimPrefix(cx.typeOf(e.X), "*")]; fields != nil {
			return fields[e.Sel.Name]
		}
		if chain := selectorText(e); chain != "" {
			return cx.env.TypeOf(chain)
		}
	case *ast.Ident:
		return cx.identType(e)
	}
	return ""
}

func (cx *cellScope) callType(e *ast.CallExpr) string {
	switch f := unparen(e.Fun).(type) {
	case *ast.Ident:
		if f.Obj == nil && !cx.declared(f.Name) {
			switch f.Name {
			case "len", "cap", "copy":
				return "int"
			case "append":
				if len(e.Args) > 0 {
					return cx.typeOf(e.Args[0])
				}
			case "new":
				if len(e.Args) == 1 {
					return "*" + types.ExprString(e.Args[0])
				}
			case "make":
				if len(e.Args) > 0 {
					return types.ExprString(e.Args[0])
				}
			case "real", "imag":
				return "float64"
			}
			if basicTypes[f.Name] {
				return f.Name
			}
		}
		if f.Obj != nil {
			if fd, ok := f.Obj.Decl.(*ast.FuncDecl); ok {
				return singleResult(fd.Type)
			}
		}
		return resultOf(cx.identType(f))
	case *ast.FuncLit:
		return singleResult(f.Type)
	case *ast.SelectorExpr:
		if chain := selectorText(f); chain != "" {
			if t, ok := cx.genericResult(chain, e.Args); ok {
				return t
			}
			return resultOf(cx.env.TypeOf(chain))
		}
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		return types.ExprString(f)
	}
	return ""
}

// resultOf returns the single result type of func type source ft, or "".
func resultOf(ft string) string {
	if strings.HasPrefix(ft, "func(") {
		if e, err := parseTypeExpr(ft); err == nil {
			if t, ok := e.(*ast.FuncType); ok {
				return singleResult(t)
			}
		}
	}
	return ""
}

func singleResult(ft *ast.FuncType) string {
	if ft.Results != nil && ft.Results.NumFields() == 1 {
		return types.ExprString(ft.Results.List[0].Type)
	}
	return ""
}

// identType resolves an identifier through its declaration in this piece,
// then the cell, then the session.
func (cx *cellScope) identType(id *ast.Ident) string {
	switch id.Name {
	case "true", "false":
		if id.Obj == nil && !cx.declared(id.Name) {
			return "bool"
		}
	}
	if id.Obj == nil {
		if t, ok := cx.types[id.Name]; ok {
			return t
		}
		return cx.env.TypeOf(id.Name)
	}
	switch d := id.Obj.Decl.(type) {
	case *ast.ValueSpec:
		if d.Type != nil {
			return types.ExprString(d.Type)
		}
		for i, n := range d.Names {
			if n.Name == id.Name && i < len(d.Values) {
				return cx.typeOf(d.Values[i])
			}
		}
	case *ast.AssignStmt:
		for i, l := range d.Lhs {
			if l, ok := l.(*ast.Ident); ok && l.Name == id.Name && len(d.Rhs) == len(d.Lhs) {
				return cx.typeOf(d.Rhs[i])
			}
		}
	case *ast.Field:
		return types.ExprString(d.Type)
	case *ast.FuncDecl:
		return types.ExprString(d.Type)
	}
	return ""
}

var basicTypes = map[string]bool{
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"byte": true, "rune": true, "float32": true, "float64": true, "complex64": true, "complex128": true,
}

func elemOf(t string, prefixes ...string) string {
	for _, p := range prefixes {
		if strings.HasPrefix(t, p) {
			return t[len(p):]
		}
	}
	return ""
}

// mapValue returns V of "map[K]V", minding brackets inside K.
func mapValue(t string) string {
	depth := 0
	for i := len("map"); i < len(t); i++ {
		switch t[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return t[i+1:]
			}
		}
	}
	return ""
}

// selectorText returns "a.b.c" for a chain of identifiers whose first one is
// not declared locally, or "".
func selectorText(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		if e.Obj != nil {
			return ""
		}
		return e.Name
	case *ast.SelectorExpr:
		if x := selectorText(e.X); x != "" {
			return x + "." + e.Sel.Name
		}
	}
	return ""
}

// genericResult returns the result type of a call of a generic function of
// slices or maps whose type the range rewrite needs (the iterators) or that
// cells often keep (Max, Sorted, ...), instantiated from the arguments'
// types; the symbol tables have no entry for generic functions. ok is false
// for other functions.
func (cx *cellScope) genericResult(fun string, args []ast.Expr) (string, bool) {
	pkg, _, _ := strings.Cut(fun, ".")
	if _, shadowed := cx.types[pkg]; pkg != "slices" && pkg != "maps" || shadowed || cx.env.TypeOf(pkg) != "" || len(args) == 0 {
		return "", false
	}
	arg := cx.typeOf(args[0])
	elem := elemOf(arg, "[]")
	key, val := mapKey(arg), mapValue(arg)
	seq := ""
	if params, ok := iteratorParams(arg); ok && len(params) == 1 {
		seq = params[0]
	}
	known := func(t string, parts ...string) (string, bool) {
		for _, p := range parts {
			if p == "" {
				return "", true
			}
		}
		return t, true
	}
	switch fun {
	case "slices.All", "slices.Backward":
		return known("func(yield func(int, "+elem+") bool)", elem)
	case "slices.Values":
		return known("func(yield func("+elem+") bool)", elem)
	case "slices.Chunk":
		return known("func(yield func("+arg+") bool)", arg)
	case "slices.Max", "slices.Min", "slices.MaxFunc", "slices.MinFunc":
		return known(elem, elem)
	case "slices.Clone", "slices.Compact", "slices.CompactFunc", "slices.Concat", "slices.Delete", "slices.DeleteFunc",
		"slices.Insert", "slices.Replace", "slices.Repeat", "slices.Clip", "slices.Grow", "slices.AppendSeq":
		return known(arg, arg)
	case "slices.Collect", "slices.Sorted", "slices.SortedFunc", "slices.SortedStableFunc":
		return known("[]"+seq, seq)
	case "maps.Keys":
		return known("func(yield func("+key+") bool)", key)
	case "maps.Values":
		return known("func(yield func("+val+") bool)", val)
	case "maps.All":
		return known("func(yield func("+key+", "+val+") bool)", key, val)
	case "maps.Clone":
		return known(arg, key)
	}
	return "", false
}

// mapKey returns K of "map[K]V", minding brackets inside K.
func mapKey(t string) string {
	v := mapValue(t)
	if v == "" {
		return ""
	}
	return t[len("map[") : len(t)-len(v)-1]
}
