package interpreter

import (
	"go/ast"
	"go/token"
)

// funcs are the extents of a program's functions and function literals, and
// the lines of its go statements, kept from its syntax tree after compiling
// so that the tree itself (pointers the garbage collector would scan at
// every cycle) need not be.
type funcs struct {
	spans []span         // in source order: a function precedes those nested in it
	goAt  map[int]string // line of a go statement → the name of the function holding it
}

// span is a function's extent and its body's braces, as line and column.
type span struct {
	from, to       position // the whole function, from func to the closing brace
	lbrace, rbrace int      // lines of its body's braces
}

type position struct{ line, col int }

func (a position) before(b position) bool {
	return a.line < b.line || a.line == b.line && a.col < b.col
}

func (s span) holds(p position) bool { return !p.before(s.from) && p.before(s.to) }

// funcsOf records the functions of f.
func funcsOf(fset *token.FileSet, f *ast.File) funcs {
	at := func(p token.Pos) position {
		q := fset.Position(p)
		return position{q.Line, q.Column}
	}
	fs := funcs{goAt: map[int]string{}}
	var stack []ast.Node // the nodes holding the one being visited
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		case *ast.GoStmt:
			fs.goAt[at(n.Pos()).line] = frameName(stack)
		}
		if body != nil {
			fs.spans = append(fs.spans, span{from: at(n.Pos()), to: at(n.End()), lbrace: at(body.Lbrace).line, rbrace: at(body.Rbrace).line})
		}
		stack = append(stack, n)
		return true
	})
	return fs
}

// InFrame reports whether a panic's innermost frame, which yaegi reports at
// line:col of notebook.go (where its function's body starts), can have
// panicked on line at: a line of the body of the innermost function holding
// line:col, outside the function literals nested in it. PanicLine is one
// variable that every goroutine sets: when a goroutine panics, another one
// may have set it since, to a line of its own function.
func (p *Program) InFrame(at, line, col int) bool {
	pos := position{line, col}
	inner := -1
	for k, s := range p.funcs.spans {
		if s.holds(pos) {
			inner = k
		}
	}
	if inner < 0 || at <= 0 {
		return false
	}
	fn := p.funcs.spans[inner]
	if at < fn.lbrace || at > fn.rbrace {
		return false
	}
	for _, s := range p.funcs.spans[inner+1:] {
		// A literal nested in fn; one that starts on the line may share it
		// with a statement of fn.
		if fn.holds(s.from) && at > s.from.line && at <= s.to.line {
			return false
		}
	}
	return true
}

// GoStatementAt names the function (as yaegi names frames: "main.train",
// "main.train.func" for a function literal in it) that holds a go statement
// starting on line of notebook.go; ok is false when no go statement starts
// there.
func (p *Program) GoStatementAt(line int) (fn string, ok bool) {
	fn, ok = p.funcs.goAt[line]
	return fn, ok
}

// frameName is yaegi's name for a frame of the innermost function among
// nodes.
func frameName(nodes []ast.Node) string {
	name := "main"
	for _, n := range nodes {
		switch n := n.(type) {
		case *ast.FuncDecl:
			name = "main." + n.Name.Name
			if n.Recv != nil && len(n.Recv.List) == 1 {
				name = "main." + recvType(n.Recv.List[0].Type) + "." + n.Name.Name
			}
		case *ast.FuncLit:
			name += ".func"
		}
	}
	return name
}

// recvType is the name of a method's receiver type: T of T, *T or T[P].
func recvType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}
