package cells

import (
	"fmt"
	"go/ast"
	"go/constant"
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
	var funcs []ast.Node    // the function each node is in (nil at a cell's top level)
	var pending *ast.Ident
	var stack []ast.Node
	ast.Inspect(p.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.LabeledStmt:
			pending = n.Label
			return true
		case *ast.RangeStmt, *ast.CallExpr:
			nodes = append(nodes, n)
			funcs = append(funcs, enclosingFunc(stack, p))
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
			err = cx.rewriteRange(n, labels[i], funcs[i], ed)
		case *ast.CallExpr:
			if err = cx.rewriteBuiltin(n, ed); err == nil {
				cx.rewriteLaunch(n, ed)
			}
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
func (cx *cellScope) rewriteRange(rs *ast.RangeStmt, label *ast.Ident, fn ast.Node, ed *edits) error {
	t := cx.typeOf(rs.X)
	if isInteger(t) {
		return cx.rangeInt(rs, label, ed)
	}
	if params, ok := iteratorParams(t); ok {
		return cx.rangeFunc(rs, label, params, fn, ed)
	}
	return nil
}

// enclosingFunc returns the type of the innermost function around the top of
// stack; a cell's statements sit in the parse wrapper's func _(), which is
// not a function of the user's.
func enclosingFunc(stack []ast.Node, p *piece) ast.Node {
	for i := len(stack) - 2; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			return f
		case *ast.FuncDecl:
			if p.kind != KindDecl {
				return nil
			}
			return f
		}
	}
	return nil
}

// funcType returns the syntax and, when go/types knows it, the type of a
// function literal or declaration (nil, nil for none).
func (cx *cellScope) funcType(fn ast.Node) (*ast.FuncType, *types.Signature) {
	switch f := fn.(type) {
	case *ast.FuncLit:
		sig, _ := cx.typeOf(f).(*types.Signature)
		return f.Type, sig
	case *ast.FuncDecl:
		var sig *types.Signature
		if cx.info != nil {
			if obj := cx.info.Defs[f.Name]; obj != nil {
				sig, _ = obj.Type().(*types.Signature)
			}
		}
		return f.Type, sig
	}
	return nil, nil
}

func (cx *cellScope) rangeInt(rs *ast.RangeStmt, label *ast.Ident, ed *edits) error {
	n := cx.temp("n")
	x := ed.textWith(ed.off(rs.X.Pos()), ed.off(rs.X.End()))
	start := rs.For
	if label != nil {
		start = label.Pos()
	}
	ed.add(ed.off(start), ed.off(start), "{ "+n+" := ", x, "; ")
	v, tok := cx.temp("i"), ":="
	if rs.Key != nil {
		v = ed.source(ed.off(rs.Key.Pos()), ed.off(rs.Key.End()))
		tok = rs.Tok.String()
	}
	clause := fmt.Sprintf(" %s %s %s - %s; %s < %s; %s++", v, tok, n, n, v, n, v)
	ed.add(ed.off(rs.For)+len("for"), ed.off(rs.X.End()), clause)
	ed.add(ed.off(rs.Body.End()), ed.off(rs.Body.End()), " }")
	return nil
}

func (cx *cellScope) rangeFunc(rs *ast.RangeStmt, label *ast.Ident, params []types.Type, fn ast.Node, ed *edits) error {
	vars := []ast.Expr{rs.Key, rs.Value}
	var decl []string
	var assign string
	for i, pt := range params {
		typ, ok := cx.typeSource(pt)
		if !ok {
			return cx.unsupported(ed, rs.X.Pos(), fmt.Sprintf("a loop over a function iterator yielding %s", types.TypeString(pt, nil)),
				"the interpreter needs the loop variables' type written out, and this type has no name here: call the iterator with a function literal instead")
		}
		name := "_"
		if i < len(vars) && vars[i] != nil {
			name = ed.source(ed.off(vars[i].Pos()), ed.off(vars[i].End()))
			if rs.Tok == token.ASSIGN && name != "_" {
				tmp := cx.temp("v")
				assign += fmt.Sprintf("%s = %s; ", name, tmp)
				name = tmp
			}
		}
		decl = append(decl, name+" "+typ)
	}
	ret := &loopReturn{}
	ret.fn, ret.sig = cx.funcType(fn)
	if err := cx.branchesToReturns(rs, label, ret, ed); err != nil {
		return err
	}
	seq := cx.temp("seq")
	x := ed.textWith(ed.off(rs.X.Pos()), ed.off(rs.X.End()))
	start := rs.For
	if label != nil {
		start = label.Pos()
	}
	ed.add(ed.off(start), ed.off(rs.Body.Lbrace)+1, "{ "+ret.decls()+seq+" := ", x,
		fmt.Sprintf("; %s(func(%s) bool {%s", seq, strings.Join(decl, ", "), assign))
	end := "return true })" + ret.after() + " }"
	if before := strings.TrimRight(ed.src[:ed.off(rs.Body.Rbrace)], " \t"); !strings.HasSuffix(before, "\n") && !strings.HasSuffix(before, "{") {
		end = "; " + end // the body's last statement is on the brace's line: { t += v }
	}
	ed.add(ed.off(rs.Body.Rbrace), ed.off(rs.Body.End()), end)
	cx.funcLoops[rs] = true
	return nil
}

// loopReturn carries a return out of the yield function of a rewritten
// range-over-function loop: the yield function stores the results, stops the
// iteration, and the code after the iterator call returns them.
type loopReturn struct {
	fn      *ast.FuncType
	sig     *types.Signature // fn's type, when go/types knows it
	flag    string           // set when the body returned
	results []string         // temporaries holding the results
	types   []string
	used    bool
}

func (r *loopReturn) decls() string {
	if !r.used {
		return ""
	}
	d := fmt.Sprintf("var %s bool; ", r.flag)
	for i, n := range r.results {
		d += fmt.Sprintf("var %s %s; ", n, r.types[i])
	}
	return d
}

func (r *loopReturn) after() string {
	if !r.used {
		return ""
	}
	return fmt.Sprintf("; if %s { return %s }", r.flag, strings.Join(r.results, ", "))
}

// branchesToReturns rewrites the loop's own continue and break into the
// yield function's return true and return false; a return or goto cannot
// leave the yield function, so they are refused.
func (cx *cellScope) branchesToReturns(rs *ast.RangeStmt, label *ast.Ident, ret *loopReturn, ed *edits) error {
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
				if r, ok := c.(*ast.RangeStmt); ok && cx.funcLoops[r] && c != n && containsReturn(r.Body) {
					err = cx.unsupported(ed, c.Pos(), "return inside nested loops over function iterators",
						"set a variable and break out of the loops, then return after them")
					return false
				}
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
				err = cx.carryReturn(c, ret, ed)
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
	case "new":
		return cx.newExpr(call, ed)
	}
	return nil
}

// newExpr rewrites Go 1.26's new(expr), a pointer to a new variable holding
// expr's value, which yaegi v0.16 takes for new(T) of expr's type (a
// pointer to its zero value): new(42) becomes func(v int) *int { return &v }(42).
func (cx *cellScope) newExpr(call *ast.CallExpr, ed *edits) error {
	if len(call.Args) != 1 || cx.info == nil {
		return nil
	}
	arg := call.Args[0]
	if tv, ok := cx.info.Types[arg]; !ok || tv.IsType() {
		return nil // new(T), or a misuse the interpreter reports
	}
	ptr, ok := cx.typeOf(call).(*types.Pointer)
	if !ok {
		return nil
	}
	typ, ok := cx.typeSource(ptr.Elem())
	if !ok {
		return cx.unsupported(ed, call.Pos(), fmt.Sprintf("new of a value of type %s", types.TypeString(ptr.Elem(), nil)),
			"the interpreter needs the variable's type written out, and this type has no name here: declare a variable and take its address")
	}
	x := ed.textWith(ed.off(arg.Pos()), ed.off(arg.End()))
	ed.add(ed.off(call.Pos()), ed.off(call.End()), fmt.Sprintf("func(v %s) *%s { return &v }(", typ, typ), x, ")")
	return nil
}

func (cx *cellScope) minMax(call *ast.CallExpr, name string, ed *edits) error {
	if len(call.Args) == 0 || call.Ellipsis.IsValid() {
		return nil // let the interpreter report the misuse
	}
	args := make([]any, 0, 2*len(call.Args))
	texts := make([]string, len(call.Args))
	for i, a := range call.Args {
		t := ed.textWith(ed.off(a.Pos()), ed.off(a.End()))
		if i > 0 {
			args = append(args, ", ")
		}
		args = append(args, t)
		texts[i] = t.s
	}
	start, end := ed.off(call.Pos()), ed.off(call.End())
	if folded, ok := foldMinMax(call.Args, texts, name); ok {
		ed.add(start, end, folded)
		return nil
	}
	typ, ok := cx.typeSource(cx.typeOf(call))
	if !ok {
		return cx.unsupported(ed, call.Pos(), name+" of arguments whose type goaccel cannot infer",
			fmt.Sprintf("convert one argument to its type, e.g. %s(float64(x), y)", name))
	}
	op := "<"
	if name == "max" {
		op = ">"
	}
	head := fmt.Sprintf("func(a %s, r ...%s) %s { for _, v := range r { if v %s a { a = v } }; return a }(", typ, typ, typ, op)
	ed.add(start, end, append(append([]any{head}, args...), ")")...)
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

// carryReturn rewrites a return in a range-over-function body into storing
// the results and stopping the iteration.
func (cx *cellScope) carryReturn(rs *ast.ReturnStmt, ret *loopReturn, ed *edits) error {
	if ret.fn == nil {
		return cx.unsupported(ed, rs.Pos(), "return inside a loop over a function iterator outside a function", "")
	}
	if !ret.used {
		ret.used = true
		ret.flag = cx.temp("ret")
		if res := ret.fn.Results; res != nil {
			i := 0
			for _, f := range res.List {
				n := max(len(f.Names), 1)
				for range n {
					typ := ed.textWith(ed.off(f.Type.Pos()), ed.off(f.Type.End())).s
					if ret.sig != nil && i < ret.sig.Results().Len() {
						if src, ok := cx.typeSource(ret.sig.Results().At(i).Type()); ok {
							typ = src
						}
					}
					ret.results = append(ret.results, cx.temp("rv"))
					ret.types = append(ret.types, typ)
					i++
				}
			}
		}
	}
	var parts []any
	if len(rs.Results) > 0 {
		if len(rs.Results) != len(ret.results) {
			return cx.unsupported(ed, rs.Pos(), "return of a multi-value call inside a loop over a function iterator",
				"assign the call's results to variables first")
		}
		parts = append(parts, strings.Join(ret.results, ", ")+" = ")
		for i, r := range rs.Results {
			if i > 0 {
				parts = append(parts, ", ")
			}
			parts = append(parts, ed.textWith(ed.off(r.Pos()), ed.off(r.End())))
		}
		parts = append(parts, "; ")
	} else if len(ret.results) > 0 {
		return cx.unsupported(ed, rs.Pos(), "a bare return with named results inside a loop over a function iterator",
			"return the values explicitly")
	}
	parts = append(parts, ret.flag+" = true; return false")
	ed.add(ed.off(rs.Pos()), ed.off(rs.End()), parts...)
	return nil
}

func containsReturn(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(c ast.Node) bool {
		if _, ok := c.(*ast.FuncLit); ok {
			return false
		}
		if _, ok := c.(*ast.ReturnStmt); ok {
			found = true
		}
		return !found
	})
	return found
}
