package session

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/kernel/internal/cells"
	"github.com/goaccel/goaccel/kernel/internal/launch"
	"github.com/goaccel/goaccel/kernel/internal/program"
	"github.com/goaccel/goaccel/magics"
	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/notebook_launcher/job"
	"github.com/goaccel/goaccel/notebook_launcher/transfer"
	"github.com/goaccel/goaccel/notebook_launcher/workers"
)

// launchState is what the running cell's launches left behind.
type launchState struct {
	err error // a launch that failed
}

// recordDecls adds to the declaration record the declarations of the
// cell (decls, as written) that the unit u, which just ran, declared; a name
// u defined with a statement (x := …) replaces any declaration of it.
// recorded marks the decls already taken.
func (s *Session) recordDecls(u cells.Unit, decls []cells.Decl, recorded []bool) {
	names := map[string]bool{}
	for _, n := range u.Names {
		names[n] = true
	}
	for recv, ms := range u.Methods {
		for _, m := range ms {
			names[recv+"."+m] = true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	covered := map[string]bool{}
	for i, d := range decls {
		if recorded[i] || !anyIn(d.Names, names) {
			continue
		}
		recorded[i] = true
		d.At.Cell = s.cell
		s.declared.Define(d)
		for _, n := range d.Names {
			covered[n] = true
		}
	}
	for _, n := range u.Names {
		if !covered[n] && u.Kinds[n] == "var" {
			s.declared.DefineByStatement(n, program.Origin{Cell: s.cell, Line: u.Line, Col: u.Col})
		}
	}
}

func anyIn(list []string, set map[string]bool) bool {
	for _, n := range list {
		if set[n] {
			return true
		}
	}
	return false
}

// runningLaunches are the launches in progress in the session: the
// launching cell's own, and those its goroutines started, which outlive it.
// Each can be cancelled (every worker is stopped now) or stopped through its
// workers.Control (at a step boundary the ranks agree on).
type runningLaunches struct {
	mu       sync.Mutex
	next     int
	launches map[int]runningLaunch
}

// runningLaunch is one launch in progress: the cell context it started in,
// what kills it, and what stops it gracefully.
type runningLaunch struct {
	cell   context.Context
	cancel context.CancelFunc
	ctl    *workers.Control
}

// add registers a launch and returns what unregisters it.
func (l *runningLaunches) add(r runningLaunch) (remove func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.launches == nil {
		l.launches = map[int]runningLaunch{}
	}
	id := l.next
	l.next++
	l.launches[id] = r
	return func() {
		l.mu.Lock()
		delete(l.launches, id)
		l.mu.Unlock()
	}
}

// stopAll cancels every launch in progress.
func (l *runningLaunches) stopAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.launches {
		r.cancel()
	}
}

// stop stops the launches in progress in mode (workers.Control.Stop): those
// started in cell, or every one when cell is nil. A launch whose workers do
// not run yet has nothing to save: a save cancels it (a finish reaches its
// workers once they start). It returns how many launches it asked and
// whether any of them now stops gracefully.
func (l *runningLaunches) stop(mode workers.StopMode, cell context.Context) (asked int, graceful bool) {
	l.mu.Lock()
	var rs []runningLaunch
	for _, r := range l.launches {
		if cell == nil || r.cell == cell {
			rs = append(rs, r)
		}
	}
	l.mu.Unlock()
	for _, r := range rs {
		switch r.ctl.Stop(mode) {
		case workers.Stopping:
			graceful = true
		case workers.NotRunning:
			r.cancel()
		}
	}
	return len(rs), graceful
}

// StopLaunches is the session's stop of its launches in progress, all of
// them, in mode; it returns how many it asked. It is the process's stop of
// its cells' launches (host.Cells, with LaunchCell): notebook_launcher.Stop
// saves (workers.StopSave: every worker finishes its step, saves its state
// and leaves, and the launch fails with a Stopped error naming the folder;
// a second call kills), and a StopButton click finishes (workers.StopFinish: the training pass ends at
// the step the ranks agree on and the launch returns what rank 0's
// function returns, as after a normal end). Interrupt, the first interrupt
// of a cell, is the same stop of the cell's own launches.
func (s *Session) StopLaunches(mode workers.StopMode) int {
	n, _ := s.launches.stop(mode, nil)
	return n
}

// Interrupt is the first thing an interrupt of the running cell does
// (executor.Stopper): the launches the cell waits for are stopped as
// StopLaunches(workers.StopSave) does — every worker finishes its step,
// saves its state and leaves — and Interrupt reports true, for the cell to
// go on until they have. It reports false when no launch of the cell can
// stop so (or one already was asked: a second interrupt), for the caller to
// cancel the cell, which stops every launch at once.
func (s *Session) Interrupt() bool {
	s.mu.Lock()
	cell := s.cellCtx
	s.mu.Unlock()
	if cell == nil {
		return false
	}
	_, graceful := s.launches.stop(workers.StopSave, cell)
	return graceful
}

// LaunchCell is the session's launch of notebook_launcher.Launch called by
// a cell's code (host.Cells, with StopLaunches): the process's host routes
// the call here.
func (s *Session) LaunchCell(ctx context.Context, call host.LaunchCall) (any, error) {
	cfg, ok := call.Config.(workers.Config)
	if !ok {
		return nil, fmt.Errorf("session: a launch of %s with a configuration of type %T; want a workers.Config", call.Name, call.Config)
	}
	return s.launchCell(ctx, launch.Request{Name: call.Name, Fn: call.Fn, Args: call.Args, Config: cfg, Compile: call.Compile}, nil)
}

// launchCell runs a cell's launch r (its function, arguments and
// configuration): a Launch call in its code, or the %accelerate magic,
// which gives the arguments' expressions (argNames) for its errors. It
// runs until the workers finish or the cell is interrupted.
func (s *Session) launchCell(ctx context.Context, r launch.Request, argNames []string) (any, error) {
	s.mu.Lock()
	cellCtx, cell, rec := s.cellCtx, s.cell, s.declared.Snapshot()
	s.mu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ctl := &workers.Control{}
	defer s.launches.add(runningLaunch{cell: cellCtx, cancel: cancel, ctl: ctl})()
	if cellCtx != nil && cellCtx.Err() != nil {
		return nil, fmt.Errorf("%w: the cell was interrupted before its launch started", context.Canceled)
	}
	r.ArgNames, r.Record, r.Cell, r.Control = argNames, rec, cell, ctl
	r.Stdout, r.Stderr, r.Display, r.Comms = s.opts.Stdout, s.opts.Stderr, s.display.target(), s.opts.Comms
	r.Tables, r.Identity = s.opts.Tables, s.opts.Executor.Identity
	out, err := launch.Run(ctx, r)
	if err != nil {
		s.mu.Lock()
		inItsCell := cellCtx != nil && s.cellCtx == cellCtx
		if inItsCell {
			s.launching.err = err
		}
		s.mu.Unlock()
		if !inItsCell {
			// A goroutine's launch that outlived its cell: the failure is
			// not the running cell's (if any), so it is only reported.
			fmt.Fprintf(s.opts.Stderr, "the launch of %s started by cell [%d] failed: %v\n", r.Name, cell, err)
		}
		return nil, err
	}
	how := "interpreted"
	if out.Build != "" {
		how = "compiled, " + out.Build
	}
	fmt.Fprintf(s.opts.Stdout, "%s ran on %s (%s; %s) in %.2f s\n", r.Name, plural(len(out.Devices), "worker"),
		strings.Join(out.Devices, ", "), how, out.Wall.Seconds())
	if !out.Value.IsValid() {
		return nil, nil
	}
	return out.Value.Interface(), nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// launchFailure is the cell's error for a failed launch.
func (s *Session) launchFailure(err error) Result {
	if errors.Is(err, context.Canceled) {
		return interrupted()
	}
	var we *launch.WorkerError
	var ce *launch.CompileError
	var te *transfer.Error
	var sv *program.StatementVarError
	var st *workers.StoppedError
	switch {
	case errors.As(err, &st):
		msg := fmt.Sprintf("stopped on request after %d optimizer steps: every worker finished its step and saved its state in %s", st.Step, st.Checkpoint)
		return Result{Error: &Error{Ename: "Stopped", Evalue: msg, Traceback: []string{
			"Stopped: " + msg,
			"Continue from there with the same launch and --resume (%accelerate launch --resume …, or notebook_launcher.Options{Resume: true}).",
		}}}
	case errors.As(err, &we):
		tb := []string{"WorkerError: " + we.Error()}
		tb = append(tb, indent(we.Trace)...)
		tb = append(tb, place(we.Where)...)
		if len(we.Tail) > 0 {
			tb = append(tb, fmt.Sprintf("last lines rank %d wrote to stderr:", we.Rank))
			tb = append(tb, indent(we.Tail)...)
		}
		return Result{Error: &Error{Ename: "WorkerError", Evalue: we.Error(), Traceback: tb}}
	case errors.As(err, &ce):
		evalue := strings.Join(ce.Lines, "; ")
		tb := append([]string{"CompileError: the worker program does not compile"}, indent(ce.Lines)...)
		tb = append(tb, place(ce.Where)...)
		return Result{Error: &Error{Ename: "CompileError", Evalue: evalue, Traceback: tb}}
	case errors.As(err, &te):
		return errorResult("ArgumentError", te.Error())
	case errors.As(err, &sv):
		return errorResult("NameError", sv.Error())
	}
	return errorResult("LaunchError", strings.TrimPrefix(err.Error(), "notebook_launcher: "))
}

func indent(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "  " + l
	}
	return out
}

// place shows a notebook line with a caret under its column.
func place(p *launch.Place) []string {
	if p == nil {
		return nil
	}
	out := []string{fmt.Sprintf("%s:", p.At), fmt.Sprintf("%4d | %s", p.At.Line, p.Code)}
	if p.At.Col > 0 {
		out = append(out, fmt.Sprintf("     | %s^", strings.Repeat(" ", p.At.Col-1)))
	}
	return out
}

// Launch is %accelerate launch: call is "train" or "train(cfg, 0.1)". The
// arguments are evaluated in the session, then the cell launcher runs the
// function on workers.
func (m magicEnv) Launch(ctx context.Context, call string, opts nl.Options, output string) (magics.Output, error) {
	s := m.s
	name, exprs, err := parseCall(call)
	if err != nil {
		return magics.Output{}, err
	}
	if output != "" && !token.IsIdentifier(output) {
		return magics.Output{}, fmt.Errorf("-o %s: the result's variable needs a Go name", output)
	}
	vals, res := s.capture(ctx, name, exprs)
	if res.Error != nil {
		return magics.Output{Result: res}, nil
	}
	v, err := s.launchCall(ctx, name, vals, exprs, opts)
	if err != nil {
		return magics.Output{Result: s.launchFailure(err)}, nil
	}
	if v == nil {
		return magics.Output{}, nil
	}
	target := output
	if target == "" {
		target = "__goaccel_launch_result"
	}
	if r := s.assign(ctx, target, name, reflect.ValueOf(v)); r.Error != nil {
		return magics.Output{Result: r}, nil
	}
	return magics.Output{Result: s.runCell(ctx, target)}, nil
}

// launchCall launches the function vals[0] (declared as name) with the
// arguments vals[1:] (written as exprs) and opts.
func (s *Session) launchCall(ctx context.Context, name string, vals []reflect.Value, exprs []string, opts nl.Options) (any, error) {
	if err := job.CheckFunc(vals[0].Type(), name); err != nil {
		return nil, fmt.Errorf("notebook_launcher: %w", err)
	}
	cfg := workers.Config{Options: opts}
	if err := cfg.Normalize(); err != nil {
		return nil, fmt.Errorf("notebook_launcher: %w", err)
	}
	return s.launchCell(ctx, launch.Request{Name: name, Fn: vals[0], Args: vals[1:], Config: cfg, Compile: opts.Compile}, exprs)
}

// Export is %accelerate export DIR call.
func (m magicEnv) Export(ctx context.Context, dir, call string, opts nl.Options) (magics.Output, error) {
	s := m.s
	name, exprs, err := parseCall(call)
	if err != nil {
		return magics.Output{}, err
	}
	vals, res := s.capture(ctx, name, exprs)
	if res.Error != nil {
		return magics.Output{Result: res}, nil
	}
	s.mu.Lock()
	rec := s.declared.Snapshot()
	s.mu.Unlock()
	if _, err := job.ParamTypes(vals[0].Type(), len(exprs), name); err != nil {
		return magics.Output{}, err
	}
	files, err := launch.Export(launch.ExportRequest{
		Dir: dir, Name: name, Args: vals[1:], ArgNames: exprs, Call: call, Options: optionsLiteral(opts), Record: rec,
	})
	if err != nil {
		return magics.Output{Result: s.launchFailure(err)}, nil
	}
	fmt.Fprintf(s.opts.Stdout, "wrote %s\nrun it with: cd %s && go run .   (or goaccel launch --num_processes N .)\n", strings.Join(files, ", "), dir)
	return magics.Output{}, nil
}

// capture evaluates the function name and the argument expressions in the
// session; the first value is the function.
func (s *Session) capture(ctx context.Context, name string, exprs []string) ([]reflect.Value, Result) {
	var got []reflect.Value
	s.mu.Lock()
	s.capturing = func(vals ...any) {
		got = make([]reflect.Value, len(vals))
		for i, v := range vals {
			got[i] = reflect.ValueOf(v)
		}
	}
	s.mu.Unlock()
	r := s.runCell(ctx, "__goaccel.Capture("+strings.Join(append([]string{name}, exprs...), ", ")+")")
	if r.Error != nil {
		return nil, r
	}
	if len(got) == 0 || !got[0].IsValid() || got[0].Kind() != reflect.Func {
		return nil, errorResult("LaunchError", fmt.Sprintf("%s is not a function: launch a function declared with func %s(…) { … }", name, name))
	}
	return got, Result{}
}

// assign stores v, rank 0's result of the function name, in the session
// variable target, declared with the function's result type.
func (s *Session) assign(ctx context.Context, target, name string, v reflect.Value) Result {
	s.mu.Lock()
	d, ok := s.declared.Lookup(name)
	s.mu.Unlock()
	typ := ""
	if ok {
		typ = resultType(d.Text)
	}
	if typ == "" {
		return errorResult("LaunchError", fmt.Sprintf("cannot tell the result type of %s to declare %s", name, target))
	}
	if r := s.runCell(ctx, "var "+target+" "+typ); r.Error != nil {
		return r
	}
	g, ok := s.globals()[target]
	if !ok || !g.CanSet() {
		return errorResult("LaunchError", "cannot set "+target)
	}
	if !v.Type().AssignableTo(g.Type()) {
		return errorResult("LaunchError", fmt.Sprintf("the result of %s (%s) does not fit %s %s: was %s redefined?", name, v.Type(), target, typ, typ))
	}
	g.Set(v)
	return Result{}
}

// resultType returns the source of the first result type of a func
// declaration's text.
func resultType(decl string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+decl, 0)
	if err != nil || len(f.Decls) == 0 {
		return ""
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Type.Results == nil || len(fd.Type.Results.List) == 0 {
		return ""
	}
	return types.ExprString(fd.Type.Results.List[0].Type)
}

// parseCall splits "train" or "train(a, b)" into the name and the argument
// expressions as written.
func parseCall(call string) (string, []string, error) {
	e, err := parser.ParseExpr(call)
	if err != nil {
		return "", nil, fmt.Errorf("%q is not a function call like train or train(cfg): %v", call, err)
	}
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name, nil, nil
	case *ast.CallExpr:
		id, ok := e.Fun.(*ast.Ident)
		if !ok {
			return "", nil, fmt.Errorf("%s: launch a function declared at the top level of a cell, by its name", call)
		}
		if e.Ellipsis.IsValid() {
			return "", nil, fmt.Errorf("%s: pass the variadic arguments one by one", call)
		}
		exprs := make([]string, len(e.Args))
		for i, a := range e.Args {
			exprs[i] = call[a.Pos()-1 : a.End()-1]
		}
		return id.Name, exprs, nil
	}
	return "", nil, fmt.Errorf("%s: launch a function declared at the top level of a cell, by its name: train or train(cfg)", call)
}

// optionsLiteral writes the fields of opts that an exported program keeps.
func optionsLiteral(o nl.Options) string {
	var f []string
	add := func(cond bool, s string, args ...any) {
		if cond {
			f = append(f, fmt.Sprintf(s, args...))
		}
	}
	add(o.NumProcesses > 0, "NumProcesses: %d", o.NumProcesses)
	add(o.MixedPrecision != "", "MixedPrecision: %q", o.MixedPrecision)
	add(o.GradientAccumulationSteps > 0, "GradientAccumulationSteps: %d", o.GradientAccumulationSteps)
	add(o.CPU, "CPU: true")
	add(o.GPUIDs != "", "GPUIDs: %q", o.GPUIDs)
	add(o.ThreadsPerProcess > 0, "ThreadsPerProcess: %d", o.ThreadsPerProcess)
	add(o.MaxRestarts > 0, "MaxRestarts: %d", o.MaxRestarts)
	return strings.Join(f, ", ")
}
