package interpreter

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/rt"
	"github.com/goaccel/goaccel/kernel/internal/cells"
	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
	"github.com/goaccel/goaccel/kernel/internal/interpreter/stdgeneric"
	"github.com/goaccel/goaccel/kernel/internal/program"
)

// Program is a worker program compiled into an interpreter.
type Program struct {
	i     *interp.Interpreter
	prog  *interp.Program
	funcs funcs // where notebook.go's functions are, for the positions yaegi reports
}

// Load compiles src, the notebook.go of a worker program, into i without
// running it. Declarations go through the same rewrites as cells (range over
// an int, min and max, …), which keep every line where it was, so yaegi's
// positions in notebook.go are the program's own and its SourceMap applies.
// With marked, every statement in a function first records its line (see
// PanicLine), which shifts columns.
func Load(i *interp.Interpreter, src string, marked bool) (*Program, error) {
	text, err := rewrite(src, marked)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(i.FileSet(), program.File, text, 0)
	if err != nil {
		return nil, err
	}
	prog, err := compile(i, f)
	if err != nil {
		return nil, err
	}
	return &Program{i: i, prog: prog, funcs: funcsOf(i.FileSet(), f)}, nil
}

// ForProgram returns an interpreter with the symbol tables of the packages
// the worker program src imports (see New), taken from goaccel's tables and
// extra (a derived executor's packages).
func ForProgram(src string, opts interp.Options, extra ...interp.Exports) (*interp.Interpreter, error) {
	f, err := parser.ParseFile(token.NewFileSet(), program.File, src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	only := map[string]bool{}
	generic := false
	var partial []string // packages whose generic functions LoadPackage adds
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		only[p] = true
		generic = generic || stdgeneric.IsBase(p)
		if deps := stdgeneric.Imports(p); deps != nil {
			partial = append(partial, p)
			for _, d := range deps {
				only[d] = true
			}
		}
	}
	if generic {
		for _, p := range []string{"cmp", "iter", "maps", "slices", "math/bits", "sync", "sync/atomic", "unsafe"} {
			only[p] = true // what the generic sources import
		}
	} else {
		// yaegi's interpreted copies of cmp, maps and slices would stay in
		// the heap, unused, and the garbage collector would scan them at
		// every cycle of the worker's training loop.
		opts.NoGenericSources = true
	}
	i, err := newWith(only, opts, extra...)
	if err == nil && generic {
		// The generic functions of slices, maps and iter that yaegi lacks.
		err = stdgeneric.Load(i)
	}
	for _, p := range partial {
		if err == nil {
			err = stdgeneric.LoadPackage(i, p)
		}
	}
	return i, err
}

// Check reports the compile errors of a worker program, running nothing;
// extra are symbol tables beyond goaccel's, as for ForProgram.
func Check(src string, extra ...interp.Exports) error {
	i, err := ForProgram(src, interp.Options{}, extra...)
	if err != nil {
		return err
	}
	_, err = Load(i, src, false)
	return err
}

// PanicLine is the line of notebook.go whose statement ran last in a
// function (0 when none ran, or the program was loaded unmarked): after a
// panic, the line it happened on. yaegi itself reports only where the block
// holding it starts.
func (p *Program) PanicLine() int {
	v, ok := p.i.Globals()[cells.LineVar]
	if !ok || !v.IsValid() || !v.CanInt() {
		return 0
	}
	return int(v.Int())
}

// Position returns a function that reads the line of notebook.go whose statement ran last (as
// PanicLine) while the program runs on other goroutines: where a worker's status says its rank
// is. Call it after Run (the program's variables exist from then on); it always reads 0 when
// the program was loaded unmarked.
func (p *Program) Position() func() int {
	v, ok := p.i.Globals()[cells.LineVar]
	if !ok || !v.IsValid() || v.Kind() != reflect.Int || !v.CanAddr() {
		return func() int { return 0 }
	}
	line := (*int)(v.Addr().UnsafePointer())
	return func() int { return readLine(line) }
}

// readLine reads the line variable that the program's marked statements keep setting as they
// run, without synchronising with them: it is one machine word, which the Go memory model says a
// racing read sees as one of the values written, never torn, and a status one statement late is
// right enough, where synchronising would slow every marked statement of every loop. The race
// detector is told to look away (go:norace; such functions are not inlined under -race), so that
// it still watches everything else.
//
//go:norace
func readLine(line *int) int { return *line }

// Run runs the program's package-level var initializers.
func (p *Program) Run(ctx context.Context) error {
	_, err := p.i.ExecuteWithContext(ctx, p.prog)
	return err
}

// Func returns the program's function name.
func (p *Program) Func(name string) (reflect.Value, error) {
	v, err := p.i.Eval(name)
	if err != nil {
		return reflect.Value{}, err
	}
	if v.Kind() != reflect.Func {
		return reflect.Value{}, fmt.Errorf("%s is a %s, not a function", name, v.Type())
	}
	return v, nil
}

// compile compiles f, turning a panic of yaegi's type checker into an error.
func compile(i *interp.Interpreter, f *ast.File) (prog *interp.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the interpreter (yaegi) crashed compiling the worker program: %v", r)
		}
	}()
	return i.CompileAST(f)
}

// programEnv is a worker program as package cells sees it: no session, the
// program's own imports, and go/types knowing the packages' types.
type programEnv struct{ sc *celltypes.Scope }

func (programEnv) Defined(string) bool            { return false }
func (programEnv) PackagePath(string) string      { return "" }
func (programEnv) PackageName(string) string      { return "" }
func (programEnv) ImportPath(string) string       { return "" }
func (programEnv) Imports() [][2]string           { return nil }
func (programEnv) TypeName(string) (string, bool) { return "", false }
func (e programEnv) Types() *celltypes.Scope      { return e.sc }

// rewrite applies the cells rewrites to the declarations of src and puts
// each rewritten declaration back on the lines it came from. The package
// clause and the helpers' import take line 1 (a generated comment).
func rewrite(src string, marked bool) (string, error) {
	lines := strings.Split(src, "\n")
	body := make([]string, len(lines))
	for n, l := range lines {
		if strings.HasPrefix(l, "package ") || strings.HasPrefix(l, "//") {
			l = strings.Repeat(" ", len(l)) // keep columns; yaegi needs no comments
		}
		body[n] = l
	}
	// A fresh importer (about 1 MB of maps copied from the symbol tables):
	// kept for the process, it would stay in a worker's heap and be scanned
	// at every collection of its training loop.
	env := programEnv{celltypes.NewScope(celltypes.NewImporter(Tables()...), nil)}
	parse := func(src string) (*cells.Program, error) { return cells.Parse(src, env) }
	if marked {
		parse = func(src string) (*cells.Program, error) { return cells.ParseProgram(src, env) }
	}
	parsed, err := parse(strings.Join(body, "\n"))
	if err != nil {
		return "", fmt.Errorf("rewrite the worker program: %w", err)
	}
	out := append([]string(nil), body...)
	out[0] = "package main; import __goaccel " + strconv.Quote(rt.ImportPath)
	for _, u := range parsed.Units {
		if u.Kind == cells.KindImport {
			continue // the program's import block stays as written
		}
		for k, l := range strings.Split(u.Text, "\n") {
			n := u.Line - 1 + k
			if k == 0 {
				l = strings.Repeat(" ", u.Col-1) + l
			}
			out[n] = l
		}
	}
	if marked {
		out = append(out, "var "+cells.LineVar+" int")
	}
	return strings.Join(out, "\n"), nil
}
