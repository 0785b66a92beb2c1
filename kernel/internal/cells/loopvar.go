package cells

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// loopVars gives the variables a for or range loop declares one copy per
// iteration, as Go 1.22 does, where a closure or a pointer can see the
// difference: yaegi v0.16 shares one variable across iterations, so closures
// created in a loop all saw its last value. A range loop's body starts with
// v := v; a three-clause loop's body works on its own copy and hands it back
// for the post statement, at the end of the body and before each continue.
// Loops whose variables nothing captures are left alone (no cost).
func (cx *cellScope) loopVars(p *piece, ed *edits) {
	ast.Inspect(p.file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			if n.Tok != token.DEFINE {
				break
			}
			var copies []string
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && id.Name != "_" && captured(n.Body, id) {
					copies = append(copies, fmt.Sprintf("%s := %s; ", id.Name, id.Name))
				}
			}
			if len(copies) > 0 && !cx.rangesOverFunc(n) {
				at := ed.off(n.Body.Lbrace) + 1
				ed.add(at, at, " "+strings.Join(copies, ""))
			}
		case *ast.ForStmt:
			init, ok := n.Init.(*ast.AssignStmt)
			if !ok || init.Tok != token.DEFINE {
				break
			}
			var head, tail []string
			for _, e := range init.Lhs {
				id, ok := e.(*ast.Ident)
				if !ok || id.Name == "_" || !captured(n.Body, id) {
					continue
				}
				outer := cx.temp("loopvar")
				head = append(head, fmt.Sprintf("%s := &%s; %s := *%s; ", outer, id.Name, id.Name, outer))
				tail = append(tail, fmt.Sprintf("*%s = %s; ", outer, id.Name))
			}
			if len(head) == 0 {
				break
			}
			at := ed.off(n.Body.Lbrace) + 1
			ed.add(at, at, " "+strings.Join(head, ""))
			back := strings.Join(tail, "")
			for _, c := range continuesOf(n) {
				ed.add(ed.off(c.Pos()), ed.off(c.Pos()), "{ "+back)
				ed.add(ed.off(c.End()), ed.off(c.End()), " }")
			}
			end := ed.off(n.Body.Rbrace)
			ed.add(end, end, "; "+back)
		}
		return true
	})
}

// rangesOverFunc reports whether the range rewrite turns rs into an iterator
// call, whose yield function already has a variable per iteration.
func (cx *cellScope) rangesOverFunc(rs *ast.RangeStmt) bool {
	_, ok := iteratorParams(cx.typeOf(rs.X))
	return ok
}

// captured reports whether a function literal in body uses the variable v
// declares, or body takes its address (go/parser's resolution: the uses
// share v's object).
func captured(body *ast.BlockStmt, v *ast.Ident) bool {
	obj := v.Obj
	if obj == nil {
		return false
	}
	found := false
	uses := func(n ast.Node) bool {
		ast.Inspect(n, func(c ast.Node) bool {
			if id, ok := c.(*ast.Ident); ok && id.Obj == obj {
				found = true
			}
			return !found
		})
		return found
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			uses(n.Body)
			return false
		case *ast.UnaryExpr:
			if id, ok := unparen(n.X).(*ast.Ident); ok && n.Op == token.AND && id.Obj == obj {
				found = true
			}
		}
		return !found
	})
	return found
}

// continuesOf returns the continue statements that continue loop: its
// unlabeled ones outside nested loops and function literals, and those
// naming its label anywhere in it.
func continuesOf(loop *ast.ForStmt) []*ast.BranchStmt {
	var label string
	var out []*ast.BranchStmt
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			switch c := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if c != n {
					walk(c, true)
					return false
				}
			case *ast.BranchStmt:
				if c.Tok == token.CONTINUE && (c.Label == nil && !nested || c.Label != nil && c.Label.Name == label) {
					out = append(out, c)
				}
			}
			return true
		})
	}
	if l, ok := loopLabel(loop); ok {
		label = l
	}
	walk(loop.Body, false)
	return out
}

// loopLabel returns the label of a labeled loop: go/parser records it as the
// object of the label's declaration, reachable from continue L's label ident.
func loopLabel(loop *ast.ForStmt) (string, bool) {
	name := ""
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Label != nil && b.Label.Obj != nil {
			if ls, ok := b.Label.Obj.Decl.(*ast.LabeledStmt); ok && ls.Stmt == loop {
				name = b.Label.Name
			}
		}
		return name == ""
	})
	return name, name != ""
}
