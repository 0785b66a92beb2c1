package cells

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
)

// cellScope is what Parse knows while it walks one cell: the session (env),
// the names the cell itself declares or imports, and what go/types found.
type cellScope struct {
	env       Env
	src       string                  // the cell
	names     map[string]bool         // package-level names the cell declares
	imports   map[string]string       // package name → import path, of the cell's imports
	tmp       int                     // counter for the rewrites' temporary names
	funcLoops map[*ast.RangeStmt]bool // range loops rewritten as iterator calls
	markLines bool                    // set LineVar before statements (ParseMarked)
	markFuncs bool                    // set LineVar before statements in function bodies (ParseProgram)
	renames   map[string]string       // user type name → interpreter name, for this cell
	newNames  map[string]string       // the renames this cell's own type declarations introduce
	info      *types.Info             // go/types' findings on the cell
	pkg       *types.Package          // the session package the cell was checked in
	namer     *celltypes.Namer        // writes types as source for the cell
	wrapErr   error                   // what wrapCompound could not wrap
	tailPrior map[string]types.Type   // the session's types of the names a tail piece defines (tail.go)
}

func newCellScope(env Env, src string) *cellScope {
	return &cellScope{env: env, src: src, names: map[string]bool{}, imports: map[string]string{}, funcLoops: map[*ast.RangeStmt]bool{}}
}

func (cx *cellScope) addImport(is *ast.ImportSpec) {
	p, _ := strconv.Unquote(is.Path.Value)
	name := path.Base(p)
	if is.Name != nil {
		name = is.Name.Name
	}
	cx.imports[name] = p
}

// declared reports whether name refers to something of the cell or the session.
func (cx *cellScope) declared(name string) bool {
	if cx.names[name] {
		return true
	}
	_, imported := cx.imports[name]
	return imported || cx.env.Defined(name)
}

// builtin reports whether the identifier id means the predeclared name.
func (cx *cellScope) builtin(id *ast.Ident) bool {
	if cx.info != nil {
		if obj, ok := cx.info.Uses[id]; ok {
			_, b := obj.(*types.Builtin)
			return b
		}
	}
	return id.Obj == nil && !cx.declared(id.Name)
}

func (cx *cellScope) temp(kind string) string {
	cx.tmp++
	return "__goaccel_" + kind + strconv.Itoa(cx.tmp)
}

// unit rewrites one piece and records the names it declares.
func (cx *cellScope) unit(src string, p *piece) (Unit, error) {
	line, col := lineCol(src, p.span.start)
	u := Unit{Kind: p.kind, Line: line, Col: col, Kinds: map[string]string{}, Methods: map[string][]string{}}
	ed := &edits{src: src, base: p.base, fset: p.fset}
	if p.kind == KindStmt && cx.markLines {
		// First, so that it comes before whatever the rewrites put at the start.
		ed.add(p.span.start, p.span.start, fmt.Sprintf("%s = %d; ", LineVar, line))
	}
	if err := cx.genericAliases(p, ed); err != nil {
		return Unit{}, err
	}
	cx.renameTypes(p, ed)
	if err := cx.embeds(p, ed); err != nil {
		return Unit{}, err
	}
	cx.loopVars(p, ed)
	if err := cx.rewrite(p, ed); err != nil {
		return Unit{}, err
	}
	cx.genericVars(p, ed)
	if p.kind == KindDecl && cx.markFuncs {
		cx.markFuncLines(p, ed)
	}
	if p.kind == KindStmt {
		if cx.markLines {
			cx.markNestedLines(p, ed)
		}
		if p.tail {
			if err := cx.wrapTail(p, ed); err != nil {
				return Unit{}, err
			}
		} else {
			cx.wrapCompound(p, ed)
			if cx.wrapErr != nil {
				return Unit{}, cx.wrapErr
			}
		}
	}
	u.mt = ed.textWith(p.span.start, p.span.end)
	if p.kind == KindStmt && !p.tail {
		for _, st := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
			switch st := st.(type) {
			case *ast.ReturnStmt:
				return Unit{}, cx.unsupported(ed, st.Pos(), "return at the top level of a cell", "a cell is not a function; leave the return out")
			case *ast.BranchStmt:
				if st.Tok == token.GOTO {
					return Unit{}, cx.unsupported(ed, st.Pos(), "goto at the top level of a cell", "use a loop or put the code in a function")
				}
			}
		}
	}
	cx.unitNames(p, &u)
	if p.kind == KindExpr {
		es := p.file.Decls[0].(*ast.FuncDecl).Body.List[0].(*ast.ExprStmt)
		if call, ok := unparen(es.X).(*ast.CallExpr); ok {
			u.Call = &Call{Fun: ed.textWith(ed.off(call.Fun.Pos()), ed.off(call.Fun.End())).s}
			if id, ok := call.Fun.(*ast.Ident); ok && cx.builtin(id) {
				u.Call.Builtin = builtinFuncs[id.Name]
			}
			u.Call.Simple = selectorChain(call.Fun)
		}
	}
	return u, nil
}

// unitNames records in u the package-level names piece p declares: its
// declarations, and for statements the left side of a top-level := and the
// declarations among them.
func (cx *cellScope) unitNames(p *piece, u *Unit) {
	switch p.kind {
	case KindDecl:
		for _, d := range p.file.Decls {
			declNames(d, u)
		}
	case KindStmt:
		for _, st := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
			if ds, ok := st.(*ast.DeclStmt); ok {
				declNames(ds.Decl, u)
				continue
			}
			as, ok := st.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE {
				continue
			}
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					u.add(id.Name, "var")
				}
			}
		}
	}
}

func (u *Unit) add(name, kind string) {
	u.Names = append(u.Names, name)
	u.Kinds[name] = kind
}

// declNames records the names a package-level declaration introduces.
func declNames(d ast.Decl, u *Unit) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			if len(d.Recv.List) == 1 {
				recv := ReceiverBase(d.Recv.List[0].Type)
				u.Methods[recv] = append(u.Methods[recv], d.Name.Name)
			}
			return
		}
		kind := "func"
		if d.Type.TypeParams != nil {
			kind = "generic func"
		}
		u.add(d.Name.Name, kind)
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				u.add(s.Name.Name, "type")
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name != "_" {
						u.add(n.Name, strings.ToLower(d.Tok.String()))
					}
				}
			}
		}
	}
}

// autoImports returns the import paths of packages the cell uses without
// importing or declaring them, sorted.
func (cx *cellScope) autoImports(pieces []*piece) []string {
	seen := map[string]bool{}
	for _, p := range pieces {
		ast.Inspect(p.file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok || id.Obj != nil || cx.declared(id.Name) {
				return true
			}
			if path := cx.env.PackagePath(id.Name); path != "" {
				seen[path] = true
			}
			return true
		})
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

var builtinFuncs = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true,
	"delete": true, "imag": true, "len": true, "make": true, "max": true, "min": true, "new": true,
	"panic": true, "print": true, "println": true, "real": true, "recover": true,
}

// merge joins consecutive declaration units and consecutive statement units
// whose cell lines follow each other, so that one yaegi evaluation runs each
// run of them; a unit that order moved above an earlier line stays apart.
func merge(units []Unit) []Unit {
	var out []Unit
	for _, u := range units {
		if n := len(out); n > 0 && u.Kind != KindExpr && out[n-1].Kind == u.Kind && u.Line >= out[n-1].Line+strings.Count(out[n-1].mt.s, "\n") {
			prev := &out[n-1]
			prev.mt = layout(prev, u)
			prev.Names = append(prev.Names, u.Names...)
			for k, v := range u.Kinds {
				prev.Kinds[k] = v
			}
			for k, v := range u.Methods {
				prev.Methods[k] = append(prev.Methods[k], v...)
			}
			continue
		}
		out = append(out, u)
	}
	return out
}

// layout appends u's text to prev's so that u keeps its cell line.
func layout(prev *Unit, u Unit) mtext {
	endLine := prev.Line + strings.Count(prev.mt.s, "\n")
	pad := "; "
	if u.Line != endLine {
		pad = strings.Repeat("\n", u.Line-endLine) + strings.Repeat(" ", u.Col-1)
	}
	return cat(prev.mt, pad, u.mt)
}

// undefined lists the identifiers the pieces leave unresolved that neither
// the cell, the session, a package nor the universe declares.
func (cx *cellScope) undefined(pieces []*piece, auto []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range pieces {
		for _, id := range p.file.Unresolved {
			n := id.Name
			if seen[n] || n == "_" || universe[n] || cx.declared(n) || cx.env.PackagePath(n) != "" || strings.HasPrefix(n, "__goaccel") {
				continue
			}
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// universe holds Go's predeclared identifiers.
var universe = func() map[string]bool {
	m := map[string]bool{"true": true, "false": true, "nil": true, "iota": true, "any": true, "error": true, "comparable": true}
	for n := range builtinFuncs {
		m[n] = true
	}
	for n := range basicTypes {
		m[n] = true
	}
	return m
}()

// wrapCompound runs a top-level compound statement (for, if, switch, a
// block) inside a closure call when its body defines several variables from
// one value (a, b := f()), and a top-level type switch always: yaegi v0.16
// loses such variables in blocks evaluated at the top level ("undefined: a")
// and crashes on a top-level type switch, and inside a function it does
// neither. The variables are local to the statement either way.
func (cx *cellScope) wrapCompound(p *piece, ed *edits) {
	body := p.file.Decls[0].(*ast.FuncDecl).Body.List
	if len(body) != 1 {
		return
	}
	st := body[0]
	switch st.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt, *ast.LabeledStmt:
	default:
		return
	}
	if _, isTypeSwitch := st.(*ast.TypeSwitchStmt); !isTypeSwitch && !containsMultiDefine(st) {
		return
	}
	if d := deferIn(st); d != nil {
		// The closure would run the call at its own end, not the cell's.
		cx.wrapErr = cx.unsupported(ed, d.Pos(), "defer inside this top-level statement",
			"goaccel runs a top-level type switch, or a statement whose blocks define several variables from one value, in a function of its own; put the defer before the statement")
		return
	}
	start, end := ed.off(st.Pos()), ed.off(st.End())
	ed.add(start, end, "func() { ", ed.textWith(start, end), " }()")
}

// deferIn returns the first defer statement in n outside function literals.
func deferIn(n ast.Node) *ast.DeferStmt {
	var found *ast.DeferStmt
	ast.Inspect(n, func(c ast.Node) bool {
		switch c := c.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			found = c
		}
		return found == nil
	})
	return found
}

// containsMultiDefine reports a := with more names than values inside n,
// outside function literals.
func containsMultiDefine(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(c ast.Node) bool {
		switch c := c.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if c.Tok == token.DEFINE && len(c.Lhs) > len(c.Rhs) {
				found = true
			}
		}
		return !found
	})
	return found
}

// LineVar is the interpreter variable a cell's statements set to their cell
// line before they run, so a panic can be reported at its line: yaegi gives
// the line of a panic inside a function, but for code at a cell's top level
// and in closures it reports only where the evaluated block starts. The
// session declares the variable and sets it before each top-level statement;
// Parse sets it before each statement nested in a top-level statement.
const LineVar = "__goaccel_line"

// markNestedLines sets LineVar before every statement inside the piece's
// top-level statement, outside function literals.
func (cx *cellScope) markNestedLines(p *piece, ed *edits) {
	for _, top := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
		markBlocks(top, ed, func(n ast.Node) bool {
			_, lit := n.(*ast.FuncLit)
			return lit
		})
	}
}

// markFuncLines sets LineVar before every statement of the piece's function
// bodies and closures, those a go statement starts included: every goroutine
// sets the one variable, and the worker checks that the line it read after a
// panic is in the panicking function (kernel/internal/interpreter's InFrame).
func (cx *cellScope) markFuncLines(p *piece, ed *edits) {
	for _, d := range p.file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			markBlocks(fd.Body, ed, func(ast.Node) bool { return false })
		}
	}
}

// markBlocks sets LineVar before each statement of every block and clause
// body under root, skipping the subtrees skip reports.
func markBlocks(root ast.Node, ed *edits, skip func(ast.Node) bool) {
	mark := func(list []ast.Stmt) {
		for _, st := range list {
			switch st.(type) {
			case *ast.LabeledStmt:
				continue // a label must stay on its statement; the one inside is marked
			case *ast.CaseClause, *ast.CommClause:
				continue // a switch's or select's body lists clauses; their bodies are marked
			}
			off := ed.off(st.Pos())
			line, _ := lineCol(ed.src, off)
			ed.add(off, off, fmt.Sprintf("%s = %d; ", LineVar, line))
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil || skip(n) {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt:
			mark(n.List)
		case *ast.CaseClause:
			mark(n.Body)
		case *ast.CommClause:
			mark(n.Body)
		}
		return true
	})
}

var basicTypes = map[string]bool{
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"byte": true, "rune": true, "float32": true, "float64": true, "complex64": true, "complex128": true,
}

// genericAliases refuses Go 1.24's generic type aliases (type Set[T
// comparable] = map[T]struct{}), which yaegi v0.16 fails on with an error
// that names nothing ("constant definition loop").
func (cx *cellScope) genericAliases(p *piece, ed *edits) error {
	var err error
	ast.Inspect(p.file, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Assign.IsValid() && ts.TypeParams != nil && err == nil {
			err = cx.unsupported(ed, ts.Pos(), "a generic type alias ("+ts.Name.Name+"[…] = …)",
				"declare a defined type (type "+ts.Name.Name+"[…] T, without the =) or write the aliased type where it is used")
		}
		return err == nil
	})
	return err
}

// genericVars rewrites a var declaration whose values call a generic
// function, at the top level or in a function: yaegi v0.16 gives such a
// variable its zero value (var n int = slices.Max(xs) is 0) or, at the top
// level, leaves it undefined (var xs = slices.Sorted(seq)). A spec with a
// type becomes the declaration and an assignment, one without a define,
// which yaegi (and the carried patch, at the top level) runs.
func (cx *cellScope) genericVars(p *piece, ed *edits) {
	if cx.info == nil || p.kind == KindImport {
		return
	}
	var decls []*ast.DeclStmt
	var top map[ast.Stmt]bool
	if p.kind == KindStmt && p.tail {
		top = map[ast.Stmt]bool{} // wrapTail turns these into assignments
		for _, st := range p.file.Decls[0].(*ast.FuncDecl).Body.List {
			top[st] = true
		}
	}
	ast.Inspect(p.file, func(n ast.Node) bool {
		if ds, ok := n.(*ast.DeclStmt); ok && !top[ds] {
			decls = append(decls, ds)
		}
		return true
	})
	for _, ds := range decls {
		g := ds.Decl.(*ast.GenDecl)
		if g.Tok != token.VAR || !cx.callsGeneric(g) {
			continue
		}
		var parts []any
		for i, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			if i > 0 {
				parts = append(parts, "; ")
			}
			names := make([]string, len(vs.Names))
			for j, n := range vs.Names {
				names[j] = n.Name
			}
			list := strings.Join(names, ", ")
			var values mtext
			if len(vs.Values) > 0 {
				values = ed.textWith(ed.off(vs.Values[0].Pos()), ed.off(vs.Values[len(vs.Values)-1].End()))
			}
			switch {
			case vs.Type != nil:
				parts = append(parts, "var "+list+" ", ed.textWith(ed.off(vs.Type.Pos()), ed.off(vs.Type.End())))
				if len(vs.Values) > 0 {
					parts = append(parts, "; "+list+" = ", values)
				}
			default:
				parts = append(parts, list+" := ", values)
			}
		}
		ed.add(ed.off(ds.Pos()), ed.off(ds.End()), parts...)
	}
}

// callsGeneric reports whether a declaration's values call a generic
// function (the type check's view).
func (cx *cellScope) callsGeneric(g *ast.GenDecl) bool {
	found := false
	for _, sp := range g.Specs {
		for _, v := range sp.(*ast.ValueSpec).Values {
			ast.Inspect(v, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && cx.callsGenericFunc(call) {
					found = true
				}
				_, lit := n.(*ast.FuncLit)
				return !found && !lit
			})
		}
	}
	return found
}
