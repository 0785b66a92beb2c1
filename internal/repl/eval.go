package repl

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/cells"
	"github.com/goaccel/goaccel/internal/stdgeneric"
)

// runCell parses, rewrites and evaluates Go code, one unit at a time. Each
// call compiles into its own file name, so positions name the cell they come
// from; yaegi scopes imports by file, so every file first imports all the
// session's packages.
func (s *Session) runCell(ctx context.Context, code string) Result {
	return s.runCellShown(ctx, code, code)
}

// runCellShown is runCell for code a magic wrapped around the user's: errors
// quote the lines of shown, the cell as the user wrote it.
func (s *Session) runCellShown(ctx context.Context, code, shown string) Result {
	s.mu.Lock()
	s.files++
	file := fmt.Sprintf("cell%d.go", s.files)
	s.sources[file] = shown
	needReset := s.reset
	s.reset = false
	prevRunning := s.running
	s.running = file
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running = prevRunning
		s.mu.Unlock()
	}()
	if needReset {
		s.clearAfterPanic()
	}
	prog, err := cells.ParseMarked(code, envView{s})
	if err != nil {
		return s.parseFailure(err, code)
	}
	decls, _ := cells.Declarations(code) // ParseMarked accepted the cell: so does Declarations
	recorded := make([]bool, len(decls))
	s.mu.Lock()
	s.undefined = prog.Undefined
	s.pendingRenames = prog.Renamed
	s.mu.Unlock()
	units := prog.Units
	var cellImports map[string]string
	if len(units) > 0 && units[0].Kind == cells.KindImport {
		cellImports = s.parseImports(units[0].Text)
		units = units[1:]
	}
	for _, p := range cellImports {
		if _, known := s.pkgs.syms[p]; !known && p != runtimePath {
			return errorResult("ImportError", fmt.Sprintf("cannot import %q: cells can import the standard library and the packages compiled into goaccel (internal/symbols/packages.txt), and this is neither", p))
		}
	}
	if err := s.loadGenerics(cellImports); err != nil {
		return errorResult("InterpreterError", err.Error())
	}
	imp := cells.Unit{Kind: cells.KindImport, Line: 1, Col: 1, Text: s.importText(cellImports)}
	if _, err := s.run(ctx, file, imp); err != nil {
		return s.failure(ctx, err, file)
	}
	s.mu.Lock()
	for name, p := range cellImports {
		s.imported[name] = p
		delete(s.kinds, name)
		s.declared.Import(name, p)
	}
	s.mu.Unlock()
	for _, u := range units {
		if u.Kind == cells.KindExpr {
			return s.evalExpr(ctx, file, u)
		}
		if _, err := s.run(ctx, file, u); err != nil {
			return s.failure(ctx, err, file)
		}
		s.record(u)
		s.recordDecls(u, decls, recorded)
	}
	return Result{}
}

// loadGenerics compiles the generic functions of slices, maps and iter that
// yaegi lacks into the interpreter the first time a cell imports one of
// those packages (written or automatic): it takes about 15 ms, which a
// session that never uses them does not pay at start.
func (s *Session) loadGenerics(imports map[string]string) error {
	s.mu.Lock()
	loaded := s.genericsLoaded
	s.mu.Unlock()
	if loaded {
		return nil
	}
	for _, p := range imports {
		if stdgeneric.Completes(p) {
			if err := stdgeneric.Load(s.yaegi); err != nil {
				return fmt.Errorf("load the generic standard packages: %w", err)
			}
			s.mu.Lock()
			s.genericsLoaded = true
			s.mu.Unlock()
			return nil
		}
	}
	return nil
}

// parseImports reads an import unit into package name → import path.
func (s *Session) parseImports(text string) map[string]string {
	out := map[string]string{}
	f, err := parser.ParseFile(token.NewFileSet(), "imports", "package p;"+text, 0)
	if err != nil {
		return out
	}
	for _, is := range f.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		name := path.Base(p)
		if n := s.pkgs.nameOf[p]; n != "" {
			name = n
		}
		if is.Name != nil {
			name = is.Name.Name
		}
		out[name] = p
	}
	return out
}

// importText is the import declaration of a cell file: the session's
// packages, the cell's own (which win on a name clash) and the runtime helpers.
func (s *Session) importText(cell map[string]string) string {
	all := map[string]string{"__goaccel": runtimePath}
	s.mu.Lock()
	for n, p := range s.imported {
		if n != "_" && n != "." { // blank and dot imports act in their own cell only
			all[n] = p
		}
	}
	s.mu.Unlock()
	for n, p := range cell {
		all[n] = p
	}
	specs := make([]string, 0, len(all))
	for n, p := range all {
		specs = append(specs, n+" "+strconv.Quote(p))
	}
	sort.Strings(specs)
	return "import (" + strings.Join(specs, "; ") + ")"
}

// clearAfterPanic runs a trivial closure: after a panic inside a closure
// called at the top level, yaegi v0.16 re-runs that closure on the next
// evaluation until another top-level closure runs.
func (s *Session) clearAfterPanic() {
	defer func() { _ = recover() }()
	_, _ = s.yaegi.Eval("func() {}()")
	s.stderr.take()
}

// source returns the Go file yaegi compiles for u: a header line, then u's
// text at its cell line and column, so yaegi's line L is cell line L-1.
func source(u cells.Unit) string {
	pad := strings.Repeat("\n", u.Line-1) + strings.Repeat(" ", u.Col-1)
	if u.Kind == cells.KindImport || u.Kind == cells.KindDecl {
		return "package main\n" + pad + u.Text + "\n"
	}
	return "package main; func main() {\n" + pad + withLineMarkers(u) + "\n}"
}

// lineVar is the interpreter variable that holds the cell line of the
// statement running at the top level of a cell (see cells.LineVar).
const lineVar = cells.LineVar

// markerText matches one lineVar assignment in compiled source.
var markerText = regexp.MustCompile(lineVar + ` = \d+; `)

// marker is one lineVar assignment inserted into a cell line: positions on
// that line after col (1-based, in the compiled text) are n bytes to the right
// of where the user wrote them.
type marker struct{ line, col, n int }

// withLineMarkers sets lineVar before each top-level statement of u.
func withLineMarkers(u cells.Unit) string {
	if len(u.Starts) == 0 {
		u.Starts, u.StartLines = []int{0}, []int{u.Line}
	}
	var b strings.Builder
	prev := 0
	for i, at := range u.Starts {
		b.WriteString(u.Text[prev:at])
		fmt.Fprintf(&b, "%s = %d; ", lineVar, u.StartLines[i])
		prev = at
	}
	b.WriteString(u.Text[prev:])
	return b.String()
}

// findMarkers lists the line markers in compiled source, in cell lines.
func findMarkers(src string) []marker {
	var out []marker
	for i, line := range strings.Split(src, "\n") {
		for _, loc := range markerText.FindAllStringIndex(line, -1) {
			out = append(out, marker{line: i, col: loc[0] + 1, n: loc[1] - loc[0]})
		}
	}
	return out
}

// compilePanic is a panic of yaegi's parser or type checker.
type compilePanic struct{ value any }

func (c *compilePanic) Error() string { return fmt.Sprint(c.value) }

// run compiles and executes one unit.
func (s *Session) run(ctx context.Context, file string, u cells.Unit) (reflect.Value, error) {
	src := source(u)
	s.mu.Lock()
	s.markers[file] = findMarkers(src) // errors come from the run that just failed
	s.compiled[file] = src
	s.mu.Unlock()
	f, err := parser.ParseFile(s.yaegi.FileSet(), file, src, parser.ParseComments)
	if err != nil {
		return reflect.Value{}, err
	}
	var root ast.Node = f
	if u.Kind != cells.KindImport && u.Kind != cells.KindDecl {
		root = f.Decls[0].(*ast.FuncDecl).Body
	}
	prog, err := s.compile(root)
	if err != nil || u.Kind == cells.KindImport {
		return reflect.Value{}, err // imports take effect when compiled; running them only resizes yaegi's frame
	}
	s.stderr.take()
	return s.yaegi.ExecuteWithContext(ctx, prog)
}

func (s *Session) compile(root ast.Node) (prog *interp.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &compilePanic{r}
		}
	}()
	return s.yaegi.CompileAST(root)
}

// record remembers what a unit that ran declared.
func (s *Session) record(u cells.Unit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.Kind == cells.KindDecl {
		s.recordSource(u.Text)
	}
	for _, n := range u.Names {
		if internal, ok := s.pendingRenames[n]; ok && u.Kinds[n] == "type" {
			s.renamed[n] = internal
		}
		s.names[n] = u.Types[n]
		s.kinds[n] = u.Kinds[n]
		if n != "" {
			delete(s.imported, n)
		}
	}
	for recv, ms := range u.Methods {
		if s.methods[recv] == nil {
			s.methods[recv] = map[string]string{}
		}
		for _, m := range ms {
			s.methods[recv][m] = ""
		}
	}
	for _, line := range strings.Split(u.Text, "\n") {
		t := strings.TrimSpace(line)
		for _, n := range u.Names {
			internal := n
			if r, ok := s.pendingRenames[n]; ok {
				internal = r
			}
			if strings.HasPrefix(t, "func "+n+"(") || strings.HasPrefix(t, "type "+internal+" ") {
				decl := strings.TrimSpace(strings.Split(t, "{")[0])
				s.decls[n] = strings.Replace(decl, "type "+internal, "type "+n, 1)
			}
		}
	}
}

// failure turns an evaluation error into the cell's error.
func (s *Session) failure(ctx context.Context, err error, file string) Result {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		s.mu.Lock()
		s.reset = true
		s.mu.Unlock()
		return interrupted()
	}
	var p interp.Panic
	if errors.As(err, &p) {
		s.mu.Lock()
		s.reset = true
		s.mu.Unlock()
		return s.panicResult(p, file)
	}
	var cp *compilePanic
	if errors.As(err, &cp) {
		msg := fmt.Sprintf("the interpreter (yaegi v0.16) crashed on this code: %v", cp.value)
		if construct := s.crashConstruct(fmt.Sprint(cp.value), file); construct != "" {
			msg = fmt.Sprintf("yaegi v0.16 cannot run %s (it crashed with %q)", construct, fmt.Sprint(cp.value))
		}
		return Result{Error: &Error{Ename: "InterpreterError", Evalue: msg, Traceback: []string{
			"InterpreterError: " + msg,
			"This is a limit of the interpreter, not an error in your code; rewriting the construct (for example with explicit types) usually avoids it.",
		}}}
	}
	raw := err.Error()
	s.mu.Lock()
	undefined := s.undefined
	s.mu.Unlock()
	if strings.Contains(raw, "definition loop") && len(undefined) > 0 {
		// yaegi's message for an undefined name in a top-level definition.
		if i := strings.LastIndex(raw, ": "); i >= 0 {
			raw = raw[:i] + ": undefined: " + strings.Join(undefined, ", ")
		}
	}
	msg := s.mapPositions(raw, file)
	tb := []string{"CompileError: " + msg}
	if line, col := s.firstPosition(raw, file); line > 0 {
		tb = append(tb, s.sourceLines(file, line, col)...)
	}
	return Result{Error: &Error{Ename: "CompileError", Evalue: msg, Traceback: tb}}
}

// panicResult builds the error of a cell that panicked, with one traceback
// line per interpreted frame, innermost first.
func (s *Session) panicResult(p interp.Panic, file string) Result {
	frames := s.stderr.take()
	evalue := fmt.Sprint(p.Value)
	tb := []string{"panic: " + evalue}
	marked := 0
	if v, ok := s.globals()[lineVar]; ok && v.IsValid() && v.CanInt() {
		marked = int(v.Int())
	}
	cellShown := false
	for _, f := range frames {
		fn := strings.TrimPrefix(f.fn, "main.")
		line := f.line - 1
		// The cell's own code and the closures it runs at its top level:
		// yaegi reports where their block starts, the marker where it was.
		cellLevel := f.file == file && (fn == "main" || strings.HasPrefix(fn, "func") || strings.HasPrefix(fn, "main.func"))
		if cellLevel {
			if cellShown {
				continue
			}
			cellShown = true
			fn = "cell"
			if marked > 0 {
				line = marked
			}
		}
		where := fmt.Sprintf("line %d", line)
		if f.file != file {
			where = fmt.Sprintf("line %d of an earlier cell", line)
		} else if !strings.Contains(evalue, "(line ") {
			evalue += fmt.Sprintf(" (line %d)", line)
		}
		tb = append(tb, fmt.Sprintf("  in %s, %s: %s", fn, where, strings.TrimSpace(s.lineText(f.file, line))))
	}
	return Result{Error: &Error{Ename: "Panic", Evalue: evalue, Traceback: tb}}
}

// parseFailure reports a cell that cells.Parse refused.
func (s *Session) parseFailure(err error, code string) Result {
	var se *cells.SyntaxError
	var ue *cells.UnsupportedError
	lines := strings.Split(code, "\n")
	show := func(line, col int) []string {
		if line < 1 || line > len(lines) {
			return nil
		}
		return []string{fmt.Sprintf("%4d | %s", line, lines[line-1]), fmt.Sprintf("     | %s^", strings.Repeat(" ", max(col-1, 0)))}
	}
	switch {
	case errors.As(err, &se):
		msg := fmt.Sprintf("line %d:%d: %s", se.Line, se.Col, se.Msg)
		return Result{Error: &Error{Ename: "SyntaxError", Evalue: msg, Traceback: append([]string{"SyntaxError: " + msg}, show(se.Line, se.Col)...)}}
	case errors.As(err, &ue):
		msg := ue.Error()
		return Result{Error: &Error{Ename: "UnsupportedError", Evalue: msg, Traceback: append([]string{"UnsupportedError: " + msg}, show(ue.Line, ue.Col)...)}}
	}
	return errorResult("Error", err.Error())
}

// crashConstruct names the construct behind a known yaegi crash in the cell.
func (s *Session) crashConstruct(panicValue, file string) string {
	s.mu.Lock()
	src := s.sources[file]
	var generic []string
	for n, k := range s.kinds {
		if k == "generic func" && regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\s*[\[(]`).MatchString(src) {
			generic = append(generic, n)
		}
	}
	s.mu.Unlock()
	sort.Strings(generic)
	switch {
	case len(generic) > 0:
		return fmt.Sprintf("this use of the generic function %s; giving its type arguments explicitly (%s[int](...)) or a non-generic version usually works", generic[0], generic[0])
	case panicValue == "nil type" && strings.Contains(src, "range"):
		return "this range loop: goaccel rewrites range over an integer or a function iterator only when it can tell the type of the ranged expression; assign it to a typed variable first (n := int(...)) or write for i := 0; i < n; i++"
	}
	return ""
}

// recordSource keeps the full source of each func, method and type a
// declaration unit declares, for SYMBOL?? and inspect with detail.
func (s *Session) recordSource(text string) {
	const header = "package main\n"
	f, err := parser.ParseFile(token.NewFileSet(), "", header+text, parser.ParseComments)
	if err != nil {
		return
	}
	src := header + text
	slice := func(n ast.Node) string { return src[n.Pos()-1 : n.End()-1] }
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				recv := strings.TrimLeft(types.ExprString(d.Recv.List[0].Type), "*")
				name = s.userTypeName(recv) + "." + name
			}
			s.declSrc[name] = slice(d)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					name := s.userTypeName(ts.Name.Name)
					s.declSrc[name] = strings.Replace("type "+slice(ts), "type "+ts.Name.Name, "type "+name, 1)
				}
			}
		}
	}
}

// userTypeName maps an interpreter name of a redefined type back to the
// user's; s.mu is held.
func (s *Session) userTypeName(internal string) string {
	for user, in := range s.pendingRenames {
		if in == internal {
			return user
		}
	}
	for user, in := range s.renamed {
		if in == internal {
			return user
		}
	}
	return internal
}
