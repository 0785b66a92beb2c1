package session

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/kernel/internal/cells"
	"github.com/goaccel/goaccel/kernel/internal/interpreter/stdgeneric"
	"github.com/goaccel/goaccel/kernel/internal/srcmap"
)

// cellSource is a cell as the user wrote it, for tracebacks.
type cellSource struct {
	count int    // its execution count (0: unknown)
	text  string // its code
	shift int    // line L of text is line L+shift of the code compiled (a magic's wrapping)
}

// cellFile is the file name the interpreter compiles a run's units under
// (yaegi scopes imports by file name, so they share one). Each unit is
// compiled on lines of its own, after blank lines, so that a position names
// the unit it is in; its source map takes it back to the cell.
type cellFile struct {
	run   int
	next  int // the first line the next unit may use
	units []unitLines
}

// unitLines is one compiled unit: its first and last line and its map.
type unitLines struct {
	first, last int
	m           *srcmap.Map
}

// runCell parses, rewrites and evaluates Go code, one unit at a time. Each
// unit compiles into its own file, whose source map takes the interpreter's
// positions back to the cell; yaegi scopes imports by file, so every file
// first imports all the session's packages.
func (s *Session) runCell(ctx context.Context, code string) Result {
	return s.runCellShown(ctx, code, code, 0)
}

// runCellShown is runCell for code a magic wrapped around the user's: errors
// quote the lines of shown, the cell as the user wrote it, whose line L is
// line L+shift of code.
func (s *Session) runCellShown(ctx context.Context, code, shown string, shift int) Result {
	s.forgetUnused()
	s.mu.Lock()
	s.runs++
	run := s.runs
	s.sources[run] = &cellSource{count: s.cell, text: shown, shift: shift}
	needReset := s.reset
	s.reset = false
	prevRunning := s.running
	s.running = run
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running = prevRunning
		s.mu.Unlock()
		s.yaegi.CloseFile(fileName(run)) // forgotten once its code is garbage (forgetUnused)
	}()
	if needReset {
		s.clearAfterPanic()
	}
	ok := false
	defer func() {
		if !ok {
			s.types.Discard() // what the type check added did not all run
		}
	}()
	prog, err := cells.ParseMarked(code, envView{s})
	var split *cells.SplitError
	if errors.As(err, &split) && len(shown) == len(code) && shift == 0 {
		return s.runSplit(ctx, code, split.Offset) // this parse's types are discarded
	}
	if err != nil {
		return s.parseFailure(err, shown, shift)
	}
	for i := range prog.TypeErrors {
		prog.TypeErrors[i].Line -= shift
	}
	decls := prog.Decls
	recorded := make([]bool, len(decls))
	s.mu.Lock()
	s.undefined = prog.Undefined
	s.pendingRenames = prog.Renamed
	s.typeErrors = prog.TypeErrors
	s.mu.Unlock()
	units := prog.Units
	var cellImports map[string]string
	if len(units) > 0 && units[0].Kind == cells.KindImport {
		cellImports = s.parseImports(units[0].Text)
		units = units[1:]
	}
	var missing []string
	for _, p := range cellImports {
		if _, known := s.pkgs.syms[p]; !known && p != runtimePath {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return s.switchFor(ctx, missing)
	}
	if err := s.loadGenerics(cellImports); err != nil {
		return errorResult("InterpreterError", err.Error())
	}
	imp := cells.Unit{Kind: cells.KindImport, Line: 1, Col: 1, Text: s.importText(cellImports)}
	if _, err := s.run(ctx, run, imp); err != nil {
		return s.failure(ctx, err, run)
	}
	s.mu.Lock()
	for name, p := range cellImports {
		s.declared.Import(name, p)
	}
	s.mu.Unlock()
	var res Result
	ended := false // a failure or a recovered panic ended the cell before its last unit
	for _, u := range units {
		if u.Kind == cells.KindExpr {
			res = s.evalExpr(ctx, run, u)
			break
		}
		if _, err := s.run(ctx, run, u); err != nil {
			res, ended = s.failure(ctx, err, run), true
			break
		}
		s.recordDecls(u, decls, recorded)
		s.record(u)
	}
	res = s.endCell(ctx, run, res, ended, prog.MainLine)
	ok = res.Error == nil
	return res
}

// endCell ends a cell as a program's main function ends: a cell that
// declares func main runs it (once: yaegi's NoMain keeps later cells from
// running it again), then the calls the cell's top-level defer statements
// deferred run, last first (a panic already ran them; an interrupt drops
// them). res is what the cell's units gave; ended says a failure or a
// recovered panic stopped them.
func (s *Session) endCell(ctx context.Context, run int, res Result, ended bool, mainLine int) Result {
	if mainLine > 0 && !ended && res.Error == nil {
		call := cells.Unit{Kind: cells.KindStmt, Line: mainLine, Col: 1}.Replace("main()")
		call.Kind = cells.KindStmt
		if _, err := s.run(ctx, run, call); err != nil {
			res = s.failure(ctx, err, run)
		}
	}
	if ctx.Err() != nil || res.Interrupted {
		s.yaegi.DiscardDeferred()
		return res
	}
	if s.firstPart && res.Error == nil && !ended {
		return res // the second part's end runs them (runSplit)
	}
	if err := s.yaegi.RunDeferred(); err != nil && res.Error == nil {
		res = s.failure(ctx, err, run)
	}
	return res
}

// loadGenerics compiles the generic functions of slices, maps and iter that
// yaegi lacks into the interpreter the first time a cell imports one of
// those packages (written or automatic): it takes about 15 ms, which a
// session that never uses them does not pay at start. The generic
// functions and types of the other standard packages (errors.AsType,
// sync.OnceValue, …) are compiled when a cell first imports their package.
func (s *Session) loadGenerics(imports map[string]string) error {
	paths := make([]string, 0, len(imports))
	for _, p := range imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if !stdgeneric.IsBase(p) {
			if err := stdgeneric.LoadPackage(s.yaegi, p); err != nil {
				return fmt.Errorf("load the generic functions of %s: %w", p, err)
			}
			continue
		}
		s.mu.Lock()
		loaded := s.genericsLoaded
		s.mu.Unlock()
		if loaded {
			continue
		}
		if err := stdgeneric.Load(s.yaegi); err != nil {
			return fmt.Errorf("load the generic standard packages: %w", err)
		}
		// Run something, so that yaegi sizes its global frame for what
		// Load declared before the cell's own code runs: a closure the
		// cell's first evaluation creates otherwise lands on the slot of
		// a global.
		s.clearAfterPanic()
		s.mu.Lock()
		s.genericsLoaded = true
		s.mu.Unlock()
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
	for _, im := range s.declared.Imports() {
		if im[0] != "_" && im[0] != "." { // blank and dot imports act in their own cell only
			all[im[0]] = im[1]
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

// lineVar is the interpreter variable that holds the cell line of the
// statement running at the top level of a cell (see cells.LineVar).
const lineVar = cells.LineVar

// compiled writes the source yaegi compiles for a unit of a run, with its
// source map: imports and declarations as they are, statements in a main
// function, a final expression after setting lineVar to its line. It
// returns the file name and the source.
func (s *Session) compiled(run int, u cells.Unit) (name, src string) {
	name = fileName(run)
	s.mu.Lock()
	f := s.files[name]
	if f == nil {
		f = &cellFile{run: run, next: 2}
		s.files[name] = f
	}
	first := f.next
	count := s.sources[run].count
	s.mu.Unlock()
	var b srcmap.Builder
	pad := strings.Repeat("\n", first-1)
	if u.Kind == cells.KindImport || u.Kind == cells.KindDecl {
		b.Generated("package main" + pad)
	} else {
		b.Generated("package main; func main() {" + pad)
		if u.Kind == cells.KindExpr {
			b.Generated(fmt.Sprintf("%s = %d; ", lineVar, u.Line))
		}
	}
	if u.Map != nil {
		b.Append(u.Map, count)
	} else {
		b.Generated(u.Text)
	}
	last := first + strings.Count(u.Text, "\n")
	if u.Kind == cells.KindImport || u.Kind == cells.KindDecl {
		b.Generated("\n")
	} else {
		b.Generated("\n}")
	}
	m := b.Map(name)
	s.mu.Lock()
	f.units = append(f.units, unitLines{first: first, last: last, m: m})
	f.next = last + 2
	s.mu.Unlock()
	return name, m.Text()
}

// fileName is the file the interpreter compiles a run's units under.
func fileName(run int) string { return fmt.Sprintf("cell%d.go", run) }

// forgetUnused lets go of what the interpreter and the session keep of the
// runs none of whose code is reachable any more (a statement that ran, a
// function defined again): their imports and positions in the interpreter,
// their source and source maps here. A cell re-run a thousand times keeps
// one run's worth.
func (s *Session) forgetUnused() {
	released := s.yaegi.ReleaseFiles()
	if len(released) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, name := range released {
		if f := s.files[name]; f != nil {
			delete(s.sources, f.run)
			delete(s.files, name)
		}
	}
}

// compilePanic is a panic of yaegi's parser or type checker.
type compilePanic struct{ value any }

func (c *compilePanic) Error() string { return fmt.Sprint(c.value) }

// run compiles and executes a unit of a run.
func (s *Session) run(ctx context.Context, run int, u cells.Unit) (reflect.Value, error) {
	name, src := s.compiled(run, u)
	f, err := parser.ParseFile(s.yaegi.FileSet(), name, src, parser.ParseComments)
	if err != nil {
		return reflect.Value{}, err
	}
	var root ast.Node = f
	if u.Kind != cells.KindImport && u.Kind != cells.KindDecl {
		root = f.Decls[0].(*ast.FuncDecl).Body
	}
	prog, err := s.compile(root)
	if prog != nil {
		// Runs once: the global frame's slots it took for its
		// intermediate values serve the next units.
		defer prog.Done()
	}
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

// failure turns an evaluation error into the cell's error.
func (s *Session) failure(ctx context.Context, err error, run int) Result {
	if errors.Is(err, interp.ErrRecovered) {
		return Result{} // a deferred call recovered a panic: the cell ends as main returns
	}
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
		if code, ok := p.Value.(interp.ExitCode); ok {
			return exitResult(int(code))
		}
		r := s.panicResult(p, run)
		if _, ok := p.Value.(*interp.Unsupported); ok {
			// What the interpreter found it cannot do as Go does, when the
			// code ran (reflect.TypeOf of a cell's type held in an any,
			// say): not the program's panic.
			r.Error.Ename = "UnsupportedError"
			r.Error.Traceback[0] = "UnsupportedError: " + strings.TrimPrefix(r.Error.Traceback[0], "panic: ")
		}
		return r
	}
	var cp *compilePanic
	if errors.As(err, &cp) {
		msg := fmt.Sprintf("the interpreter (yaegi v0.16) crashed on this code: %v", cp.value)
		if construct := s.crashConstruct(fmt.Sprint(cp.value), run); construct != "" {
			msg = fmt.Sprintf("yaegi v0.16 cannot run %s (it crashed with %q)", construct, fmt.Sprint(cp.value))
		}
		return Result{Error: &Error{Ename: "InterpreterError", Evalue: msg, Traceback: []string{
			"InterpreterError: " + msg,
			"This is a limit of the interpreter, not an error in your code; rewriting the construct (for example with explicit types) usually avoids it.",
		}}}
	}
	return s.compileError(err.Error(), run)
}

// exitResult is the end of a cell that called os.Exit (or log.Fatal): as a
// program ends, with no deferred call run; a status other than 0 is the
// cell's error. The executor and the session stay.
func exitResult(code int) Result {
	if code == 0 {
		return Result{}
	}
	msg := fmt.Sprintf("os.Exit(%d): exit status %d", code, code)
	return Result{Error: &Error{Ename: "Exit", Evalue: msg, Traceback: []string{
		"Exit: " + msg,
		"The cell ended as a program would (its deferred calls did not run); the session and its variables are kept.",
	}}}
}

// panicResult builds the error of a cell that panicked, with one traceback
// line per interpreted frame, innermost first.
func (s *Session) panicResult(p interp.Panic, run int) Result {
	frames := s.stderr.take()
	evalue := fmt.Sprint(p.Value)
	tb := []string{"panic: " + evalue}
	marked := 0
	if v, ok := s.globals()[lineVar]; ok && v.IsValid() && v.CanInt() {
		s.mu.Lock()
		marked = int(v.Int()) - s.sources[run].shift
		s.mu.Unlock()
	}
	cellShown := false
	for _, f := range frames {
		fn := strings.TrimPrefix(f.fn, "main.")
		at, mapped := s.origin(f.file, f.line, 0)
		if !mapped {
			continue // code the session wrote
		}
		// The cell's own code and the closures it runs at its top level:
		// yaegi reports where their block starts, the marker where it was.
		cellLevel := at.run == run && (fn == "main" || strings.HasPrefix(fn, "func") || strings.HasPrefix(fn, "main.func"))
		if cellLevel {
			if cellShown {
				continue
			}
			cellShown = true
			fn = "cell"
			if marked > 0 {
				at.Line = marked
			}
		}
		where := fmt.Sprintf("line %d", at.Line)
		if at.run != run {
			where = fmt.Sprintf("line %d of an earlier cell", at.Line)
		} else if !strings.Contains(evalue, "(line ") {
			evalue += fmt.Sprintf(" (line %d)", at.Line)
		}
		tb = append(tb, fmt.Sprintf("  in %s, %s: %s", fn, where, strings.TrimSpace(s.lineText(at.run, at.Line))))
	}
	return Result{Error: &Error{Ename: "Panic", Evalue: evalue, Traceback: tb}}
}

// parseFailure reports a cell that cells.Parse refused; shown is the cell as
// the user wrote it, whose line L is line L+shift of the code parsed.
func (s *Session) parseFailure(err error, shown string, shift int) Result {
	var se *cells.SyntaxError
	var ue *cells.UnsupportedError
	lines := strings.Split(shown, "\n")
	show := func(line, col int) []string {
		if line < 1 || line > len(lines) {
			return nil
		}
		return caretLines(line, col, lines[line-1])
	}
	switch {
	case errors.As(err, &se):
		se.Line -= shift
		msg := fmt.Sprintf("line %d:%d: %s", se.Line, se.Col, se.Msg)
		return Result{Error: &Error{Ename: "SyntaxError", Evalue: msg, Traceback: append([]string{"SyntaxError: " + msg}, show(se.Line, se.Col)...)}}
	case errors.As(err, &ue):
		ue.Line -= shift
		msg := ue.Error()
		return Result{Error: &Error{Ename: "UnsupportedError", Evalue: msg, Traceback: append([]string{"UnsupportedError: " + msg}, show(ue.Line, ue.Col)...)}}
	}
	return errorResult("Error", err.Error())
}

// caretLines shows a cell line with a caret under col.
func caretLines(line, col int, text string) []string {
	return []string{fmt.Sprintf("%4d | %s", line, text), fmt.Sprintf("     | %s^", strings.Repeat(" ", max(col-1, 0)))}
}

// crashConstruct names the construct behind a known yaegi crash in the cell.
func (s *Session) crashConstruct(panicValue string, run int) string {
	s.mu.Lock()
	src := s.sources[run].text
	names := s.declared.Names()
	s.mu.Unlock()
	var generic []string
	for _, n := range names {
		if s.kindOf(n) == "generic func" && regexp.MustCompile(`\b`+regexp.QuoteMeta(n)+`\s*[\[(]`).MatchString(src) {
			generic = append(generic, n)
		}
	}
	switch {
	case len(generic) > 0:
		return fmt.Sprintf("this use of the generic function %s; giving its type arguments explicitly (%s[int](...)) or a non-generic version usually works", generic[0], generic[0])
	case panicValue == "nil type" && strings.Contains(src, "range"):
		return "this range loop: goaccel rewrites range over an integer or a function iterator only when it can tell the type of the ranged expression; assign it to a typed variable first (n := int(...)) or write for i := 0; i < n; i++"
	}
	return ""
}

// runSplit runs a cell as two evaluations, the second from byte off on
// (cells.SplitError): the second part keeps its lines and columns, the
// first part blanked out before it, and its errors quote the whole cell;
// the calls the first part deferred run at the end of the second, with its
// own, last first.
func (s *Session) runSplit(ctx context.Context, code string, off int) Result {
	first := code[:off]
	s.firstPart = true
	r := s.runCellShown(ctx, first, first, 0)
	s.firstPart = false
	if r.Error != nil || r.Interrupted {
		return r
	}
	blank := []byte(first)
	for i, c := range blank {
		if c != '\n' {
			blank[i] = ' '
		}
	}
	return s.runCellShown(ctx, string(blank)+code[off:], code, 0)
}
