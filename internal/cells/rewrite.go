package cells

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
)

// rewrite registers the edits that turn modern Go into what yaegi v0.16 runs.
// Nodes are handled children first, so an outer rewrite's text contains the
// inner ones.
func (cx *cellScope) rewrite(p *piece, ed *edits) error {
	var nodes []ast.Node
	var labels []*ast.Ident // label of each node when it is a labeled loop
	var pending *ast.Ident
	ast.Inspect(p.file, func(n ast.Node) bool {
		if n == nil {
			return true
		}
		switch n := n.(type) {
		case *ast.LabeledStmt:
			pending = n.Label
			return true
		case *ast.RangeStmt, *ast.CallExpr:
			nodes = append(nodes, n)
			if _, ok := n.(*ast.RangeStmt); ok {
				labels = append(labels, pending)
			} else {
				labels = append(labels, nil)
			}
		}
		if _, ok := n.(*ast.Ident); !ok {
			pending = nil
		}
		return true
	})
	for i := len(nodes) - 1; i >= 0; i-- {
		var err error
		switch n := nodes[i].(type) {
		case *ast.RangeStmt:
			err = cx.rewriteRange(n, labels[i], ed)
		case *ast.CallExpr:
			err = cx.rewriteBuiltin(n, ed)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (cx *cellScope) unsupported(ed *edits, pos token.Pos, construct, hint string) error {
	line, col := lineCol(ed.src, ed.off(pos))
	return &UnsupportedError{Line: line, Col: col, Construct: construct, Hint: hint}
}

// rewriteRange turns range over an integer into a three-clause loop and
// range over a function into a call of that function with the body as yield.
func (cx *cellScope) rewriteRange(rs *ast.RangeStmt, label *ast.Ident, ed *edits) error {
	t := cx.typeOf(rs.X)
	if isIntType(t) {
		return cx.rangeInt(rs, label, ed)
	}
	if params, ok := iteratorParams(t); ok {
		return cx.rangeFunc(rs, label, params, ed)
	}
	return nil
}

func (cx *cellScope) rangeInt(rs *ast.RangeStmt, label *ast.Ident, ed *edits) error {
	n := cx.temp("n")
	x := ed.textWith(ed.off(rs.X.Pos()), ed.off(rs.X.End()))
	start := rs.For
	if label != nil {
		start = label.Pos()
	}
	ed.add(ed.off(start), ed.off(start), fmt.Sprintf("{ %s := %s; ", n, x))
	v, tok := cx.temp("i"), ":="
	if rs.Key != nil {
		v = ed.src[ed.off(rs.Key.Pos()):ed.off(rs.Key.End())]
		tok = rs.Tok.String()
	}
	clause := fmt.Sprintf(" %s %s %s - %s; %s < %s; %s++", v, tok, n, n, v, n, v)
	ed.add(ed.off(rs.For)+len("for"), ed.off(rs.X.End()), clause)
	ed.add(ed.off(rs.Body.End()), ed.off(rs.Body.End()), " }")
	return nil
}

func (cx *cellScope) rangeFunc(rs *ast.RangeStmt, label *ast.Ident, params []string, ed *edits) error {
	vars := []ast.Expr{rs.Key, rs.Value}
	var decl []string
	var assign string
	for i, typ := range params {
		name := "_"
		if i < len(vars) && vars[i] != nil {
			name = ed.src[ed.off(vars[i].Pos()):ed.off(vars[i].End())]
			if rs.Tok == token.ASSIGN && name != "_" {
				tmp := cx.temp("v")
				assign += fmt.Sprintf("%s = %s; ", name, tmp)
				name = tmp
			}
		}
		decl = append(decl, name+" "+typ)
	}
	if err := cx.branchesToReturns(rs, label, ed); err != nil {
		return err
	}
	seq := cx.temp("seq")
	x := ed.textWith(ed.off(rs.X.Pos()), ed.off(rs.X.End()))
	start := rs.For
	if label != nil {
		start = label.Pos()
	}
	head := fmt.Sprintf("{ %s := %s; %s(func(%s) bool {%s", seq, x, seq, strings.Join(decl, ", "), assign)
	ed.add(ed.off(start), ed.off(rs.Body.Lbrace)+1, head)
	ed.add(ed.off(rs.Body.Rbrace), ed.off(rs.Body.End()), "return true }) }")
	return nil
}

// branchesToReturns rewrites the loop's own continue and break into the
// yield function's return true and return false; a return or goto cannot
// leave the yield function, so they are refused.
func (cx *cellScope) branchesToReturns(rs *ast.RangeStmt, label *ast.Ident, ed *edits) error {
	var err error
	var walk func(n ast.Node, inLoop, inBreakable bool)
	walk = func(n ast.Node, inLoop, inBreakable bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if err != nil || c == nil {
				return false
			}
			switch c := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if c != n {
					walk(c, true, true)
					return false
				}
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if c != n {
					walk(c, inLoop, true)
					return false
				}
			case *ast.ReturnStmt:
				err = cx.unsupported(ed, c.Pos(), "return inside a loop over a function iterator",
					"set a variable and break out of the loop, then return after it")
			case *ast.BranchStmt:
				mine := c.Label == nil || (label != nil && c.Label.Name == label.Name)
				if c.Label != nil && !mine {
					err = cx.unsupported(ed, c.Pos(), c.Tok.String()+" "+c.Label.Name+" out of a loop over a function iterator", "use a flag variable")
					return false
				}
				switch {
				case c.Tok == token.GOTO:
					err = cx.unsupported(ed, c.Pos(), "goto inside a loop over a function iterator", "")
				case c.Tok == token.CONTINUE && (c.Label != nil || !inLoop):
					ed.add(ed.off(c.Pos()), ed.off(c.End()), "return true")
				case c.Tok == token.BREAK && (c.Label != nil || !inBreakable):
					ed.add(ed.off(c.Pos()), ed.off(c.End()), "return false")
				}
			}
			return true
		})
	}
	walk(rs.Body, false, false)
	return err
}

// rewriteBuiltin replaces min, max and clear, which yaegi v0.16 lacks.
func (cx *cellScope) rewriteBuiltin(call *ast.CallExpr, ed *edits) error {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || !cx.builtin(id) {
		return nil
	}
	switch id.Name {
	case "clear":
		ed.add(ed.off(id.Pos()), ed.off(id.End()), "__goaccel.Clear")
	case "min", "max":
		return cx.minMax(call, id.Name, ed)
	}
	return nil
}

func (cx *cellScope) minMax(call *ast.CallExpr, name string, ed *edits) error {
	if len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return nil // let the interpreter report the misuse
	}
	args := make([]string, len(call.Args))
	for i, a := range call.Args {
		args[i] = ed.textWith(ed.off(a.Pos()), ed.off(a.End()))
	}
	start, end := ed.off(call.Pos()), ed.off(call.End())
	if folded, ok := foldMinMax(call.Args, args, name); ok {
		ed.add(start, end, folded)
		return nil
	}
	typ := ""
	for _, a := range call.Args {
		if _, lit := constArg(a); lit {
			continue
		}
		if typ = cx.typeOf(a); typ != "" {
			break
		}
	}
	if typ == "" {
		return cx.unsupported(ed, call.Pos(), name+" of arguments whose type goaccel cannot infer",
			fmt.Sprintf("convert one argument to its type, e.g. %s(float64(x), y)", name))
	}
	op := "<"
	if name == "max" {
		op = ">"
	}
	ed.add(start, end, fmt.Sprintf("func(a %s, r ...%s) %s { for _, v := range r { if v %s a { a = v } }; return a }(%s)",
		typ, typ, typ, op, strings.Join(args, ", ")))
	return nil
}

// constArg returns the constant value of a literal argument (-1, 2.5, "a").
func constArg(e ast.Expr) (constant.Value, bool) {
	neg := false
	if u, ok := e.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		neg = u.Op == token.SUB
		e = u.X
	}
	lit, ok := unparen(e).(*ast.BasicLit)
	if !ok {
		return nil, false
	}
	v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
	if v.Kind() == constant.Unknown {
		return nil, false
	}
	if neg {
		v = constant.UnaryOp(token.SUB, v, 0)
	}
	return v, true
}

// foldMinMax computes min or max of literal arguments as Go would, keeping
// the untyped kind (min(1, 2.5) is the float constant 1.0).
func foldMinMax(args []ast.Expr, texts []string, name string) (string, bool) {
	best, kind := -1, constant.Int
	var bv constant.Value
	for i, a := range args {
		v, ok := constArg(a)
		if !ok {
			return "", false
		}
		if v.Kind() == constant.Float {
			kind = constant.Float
		}
		if v.Kind() == constant.String {
			kind = constant.String
		}
		op := token.LSS
		if name == "max" {
			op = token.GTR
		}
		if best < 0 || constant.Compare(v, op, bv) {
			best, bv = i, v
		}
	}
	text := strings.TrimSpace(texts[best])
	if kind == constant.Float && bv.Kind() == constant.Int {
		text = "(" + text + ".0)"
	}
	return text, true
}

func isIntType(t string) bool {
	switch t {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "rune":
		return true
	}
	return false
}

// iteratorParams reports whether type source t is func(yield func(...) bool)
// and returns yield's parameter types.
func iteratorParams(t string) ([]string, bool) {
	if !strings.HasPrefix(t, "func") {
		return nil, false
	}
	e, err := parser.ParseExpr(t)
	if err != nil {
		return nil, false
	}
	ft, ok := e.(*ast.FuncType)
	if !ok || ft.Params.NumFields() != 1 || ft.Results.NumFields() != 0 {
		return nil, false
	}
	yield, ok := ft.Params.List[0].Type.(*ast.FuncType)
	if !ok || yield.Results.NumFields() != 1 {
		return nil, false
	}
	if r, ok := yield.Results.List[0].Type.(*ast.Ident); !ok || r.Name != "bool" {
		return nil, false
	}
	var params []string
	for _, f := range yield.Params.List {
		n := len(f.Names)
		if n == 0 {
			n = 1
		}
		for range n {
			params = append(params, types.ExprString(f.Type))
		}
	}
	return params, true
}

func parseTypeExpr(t string) (ast.Expr, error) { return parser.ParseExpr(t) }
