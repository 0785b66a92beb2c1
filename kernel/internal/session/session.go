package session

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/comm"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/kernel/executor"
	"github.com/goaccel/goaccel/kernel/internal/cells"
	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
	"github.com/goaccel/goaccel/kernel/internal/derive"
	"github.com/goaccel/goaccel/kernel/internal/gobuild"
	"github.com/goaccel/goaccel/kernel/internal/interpreter"
	"github.com/goaccel/goaccel/kernel/internal/program"
	"github.com/goaccel/goaccel/magics"
	"github.com/goaccel/goaccel/tensors/backend"
)

// Options configure a Session.
type Options struct {
	Stdout, Stderr io.Writer // interpreted code's os.Stdout/os.Stderr/fmt.Print* go here
	// Stdin is interpreted code's os.Stdin; nil means reading returns an error
	// saying stdin is not available.
	Stdin io.Reader
	Dir   string // initial working directory ("" = current)
	// Tables are symbol tables besides goaccel's: a derived executor's
	// packages (kernel/internal/derive).
	Tables []interp.Exports
	// Executor describes the executor binary the session runs in, which
	// derives another when a cell imports a package none of the tables
	// has (zero: cells can import only the tables' packages).
	Executor derive.Spec
	// StateFile is where the session keeps its declarations for the
	// executor that replaces this one, and restores them from (Restore);
	// "" keeps nothing.
	StateFile string
	// Display receives the display messages of cells (nil: they go
	// nowhere); the session's own Display passes them on, except while
	// %%capture captures them.
	Display host.Display
	// Comms are the process's comms (the host's, for package widgets),
	// which the session serves to the kernel (nil: none).
	Comms *comm.Manager
}

// Result is the outcome of executing one cell: the executor protocol's own
// type, which the executor process sends to the kernel as it is.
type Result = executor.Result

// Error is a failed cell, as the Jupyter error message carries it.
type Error = executor.Error

// Session is one interpreter whose state persists across cells.
type Session struct {
	firstPart bool // running the first part of a split cell: its deferred calls wait (runSplit)
	opts      Options
	in        *stdinSwitch
	stderr    *panicFilter
	yaegi     *interp.Interpreter
	magics    *magics.Registry
	pkgs      packageIndex
	docs      docIndex

	// Interpreted code's stdout and stderr (under the panic filter): the
	// session's writers, or a %%capture buffer. os.Stdout and os.Stderr of
	// interpreted code are files when the session's are; %%capture swaps
	// them for pipes.
	out, errOut            *switchWriter
	stdoutFile, stderrFile *os.File
	// display is where cells' displays go: Options.Display, or a
	// %%capture's sink.
	display displaySwitch

	mu      sync.Mutex
	seq     int                  // executions so far
	runs    int                  // cells compiled so far (runCell calls); names the next one's file
	sources map[int]*cellSource  // run → the cell as the user wrote it
	files   map[string]*cellFile // compiled file name → its run and its units' source maps
	running int                  // the run in progress, 0 between cells
	timer   cellTimer            // %timeit's loop timing
	reset   bool                 // a panic or interrupt happened: clear yaegi's state before the next run
	// The symbol table: one record per name (its declaration, statement or
	// import, and a redefined type's interpreter name), with go/types
	// knowing each name's type.
	declared *program.Record
	types    *celltypes.Scope
	// What the running cell's parse found, for its errors.
	pendingRenames map[string]string  // types the running cell redefines → their interpreter names
	undefined      []string           // names the running cell uses that nothing declares
	typeErrors     []cells.TypeError  // what go/types found wrong in the running cell
	captured       *magics.CapturedIO // the last %%capture, for binding to its variable
	genericsLoaded bool               // stdgeneric is compiled into the interpreter
	modules        []gobuild.Require  // %go get pins and %go mod use folders not yet in the executor
	savedState     []byte             // what the state file holds
	savedFrom      stateSource        // what savedState was made from

	count     int             // the kernel's execution count for the next Execute (0: unknown)
	cell      int             // the running cell's execution count
	cellCtx   context.Context // the running cell's context, for launches
	launching launchState     // a launch started by the running cell
	launches  runningLaunches // every launch in progress, stopped by an interrupt
	capturing func(...any)    // receives __goaccel.Capture's values

	callback      func() // the widget callback runCallback runs
	callbackReady bool   // the interpreter's default file imports the runtime helpers

	idle *time.Timer // gives memory back once the session is idle (memory.go)
}

// New starts an interpreter with the standard library and goaccel's packages.
func New(opts Options) (*Session, error) {
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Dir != "" {
		if err := os.Chdir(opts.Dir); err != nil {
			return nil, fmt.Errorf("session: change to initial directory: %w", err)
		}
	}
	s := &Session{opts: opts, in: &stdinSwitch{r: opts.Stdin}, magics: magics.NewRegistry(),
		out: &switchWriter{w: opts.Stdout}, errOut: &switchWriter{w: opts.Stderr}}
	s.stderr = &panicFilter{w: s.errOut}
	s.idle = time.AfterFunc(idleRelease, backend.Idle)
	s.idle.Stop()
	s.stdoutFile, _ = opts.Stdout.(*os.File)
	s.stderrFile, _ = opts.Stderr.(*os.File)
	if err := s.start(); err != nil {
		return nil, err
	}
	s.display.d = opts.Display
	return s, nil
}

// Display is the session's display, for the process's host: it passes the
// display messages of cells to Options.Display, except while %%capture
// captures them. It is nil when Options.Display is: nothing shows them.
func (s *Session) Display() host.Display {
	if s.opts.Display == nil {
		return nil
	}
	return &s.display
}

// start gives the session a fresh interpreter with the standard library and
// goaccel's packages, and forgets what the session recorded of earlier
// cells: New, and %reset. The rest of the generic standard packages is
// compiled in when a cell first imports one (loadGenerics).
func (s *Session) start() error {
	yaegi, err := interpreter.New(interp.Options{Stdin: s.in, Stdout: s.out, Stderr: s.stderr, Args: []string{"goaccel"}, Go: s.startGoroutine, NoMain: true, TopLevelDefers: true, TypeNames: cells.DisplayName}, append(s.opts.Tables, s.overrides())...)
	if err != nil {
		return fmt.Errorf("session: load symbols: %w", err)
	}
	if _, err := yaegi.Eval("var " + lineVar + " int"); err != nil {
		return fmt.Errorf("session: set up the interpreter: %w", err)
	}
	tables := append(append(interpreter.Tables(), s.opts.Tables...), s.overrides())
	imp := celltypes.NewImporter(tables...)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.yaegi = yaegi
	s.pkgs = newPackageIndex(append(tables, genericIndex())...)
	s.declared = program.NewRecord()
	s.types = celltypes.NewScope(imp, s.typeSession)
	s.sources, s.files = map[int]*cellSource{}, map[string]*cellFile{}
	s.pendingRenames, s.undefined, s.typeErrors, s.reset, s.captured, s.genericsLoaded = nil, nil, nil, false, nil, false
	s.callbackReady = false
	return nil
}

// Magics returns the session's magic registry, where other packages add
// magics such as %accelerate.
func (s *Session) Magics() *magics.Registry { return s.magics }

// SetStdin swaps the stdin reader per execution (allow_stdin differs per request).
func (s *Session) SetStdin(r io.Reader) { s.in.set(r) }

// Execute runs one cell: Go code, magics, !commands or SYMBOL?. ctx
// cancellation interrupts it: an interpreted loop stops, the Result has
// Interrupted set and the session's variables survive.
func (s *Session) Execute(ctx context.Context, code string) Result {
	s.cellStarted()
	defer s.cellEnded()
	s.mu.Lock()
	s.seq++
	s.cell = s.seq
	if s.count > 0 {
		s.cell, s.count = s.count, 0
	}
	s.cellCtx = ctx
	s.launching = launchState{}
	s.mu.Unlock()
	// An interrupt (ctx cancelled while the cell runs) stops every launch,
	// including one a goroutine of an earlier cell started; the cancel that
	// follows the cell's normal end stops none.
	var ended atomic.Bool
	watch := context.AfterFunc(ctx, func() {
		if !ended.Load() {
			s.launches.stopAll()
		}
	})
	r := s.execute(ctx, code)
	if s.opts.Comms != nil {
		s.opts.Comms.Finish() // a widget callback area the cell made goes under its output
	}
	ended.Store(true)
	if !watch() {
		s.launches.stopAll() // interrupted: watch's func may not have run yet
	}
	if len(r.Switch) == 0 {
		if err := s.saveState(false); err != nil {
			fmt.Fprintln(s.opts.Stderr, "goaccel:", err, "(an executor restart will not restore the session)")
		}
	}
	s.mu.Lock()
	failed := s.launching.err
	s.cellCtx = nil
	s.mu.Unlock()
	if failed != nil && r.Error == nil {
		// A Launch in the cell failed and the cell went on: the failure is
		// the cell's error, as an exception would be in Python.
		return s.launchFailure(failed)
	}
	return r
}

// SetExecutionCount tells the session the kernel's execution count for the
// next cell, which names cells in worker errors ("cell [3], line 5").
func (s *Session) SetExecutionCount(n int) {
	s.mu.Lock()
	s.count = n
	s.mu.Unlock()
}

func (s *Session) execute(ctx context.Context, code string) Result {
	if sym, ok := magics.HelpQuery(code); ok {
		page, found := s.Doc(sym)
		if src, ok := s.source(sym); ok && strings.HasSuffix(strings.TrimSpace(code), "??") {
			page, found = src, true
		}
		if !found {
			return errorResult("NameError", fmt.Sprintf("no documentation found for %s", sym))
		}
		return pageResult(page)
	}
	if segs := magics.Segments(code, goComplete); len(segs) > 1 {
		return s.executeSegments(ctx, segs)
	}
	return s.executeSegment(ctx, code)
}

// goComplete reports whether src is complete Go code.
func goComplete(src string) bool {
	status, _ := cells.IsComplete(src)
	return status == "complete"
}

// executeSegments runs the parts of a cell that line magics split (see
// magics.Segments) in order: their outputs and payloads add up, the first
// error (or executor switch) ends the cell, the last part's result is the
// cell's.
func (s *Session) executeSegments(ctx context.Context, segs []string) Result {
	var payload []map[string]any
	var r Result
	for _, seg := range segs {
		r = s.executeSegment(ctx, seg)
		r.Payload = append(payload, r.Payload...)
		payload = r.Payload
		if r.Error != nil || r.Interrupted || len(r.Switch) > 0 {
			break
		}
	}
	return r
}

// executeSegment runs leading magics, then Go code.
func (s *Session) executeSegment(ctx context.Context, code string) Result {
	calls, goCode := magics.Parse(code)
	var res Result
	for _, c := range calls {
		out, err := s.magics.Run(ctx, c, magicEnv{s})
		if err != nil {
			if ctx.Err() != nil {
				return interrupted()
			}
			return errorResult("MagicError", err.Error())
		}
		if out.Page != "" {
			res.Payload = append(res.Payload, pagePayload(out.Page))
		}
		if out.NextInput != "" {
			res.Payload = append(res.Payload, map[string]any{"source": "set_next_input", "text": out.NextInput, "replace": true})
		}
		if r, ok := out.Result.(Result); ok {
			r.Payload = append(res.Payload, r.Payload...)
			res = r
			if res.Error != nil || len(res.Switch) > 0 {
				return res
			}
		}
	}
	if goCode == "" {
		return res
	}
	r := s.runCell(ctx, goCode)
	r.Payload = append(res.Payload, r.Payload...)
	return r
}

func interrupted() Result {
	return Result{Interrupted: true, Error: &Error{
		Ename: "Interrupted", Evalue: "interrupted by user",
		Traceback: []string{"Interrupted: interrupted by user (the session's variables are kept)"},
	}}
}

func errorResult(ename, evalue string) Result {
	return Result{Error: &Error{Ename: ename, Evalue: evalue, Traceback: []string{ename + ": " + evalue}}}
}

func pagePayload(text string) map[string]any {
	return map[string]any{"source": "page", "data": map[string]any{"text/plain": text}, "start": 0}
}

func pageResult(text string) Result {
	return Result{Payload: []map[string]any{pagePayload(text)}}
}

// UserExpressions evaluates expressions for an execute_request's
// user_expressions, each on its own: {"status":"ok","data":…,"metadata":{}}
// or {"status":"error","ename":…,"evalue":…,"traceback":[…]}.
func (s *Session) UserExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	out := map[string]any{}
	for name, e := range exprs {
		r := s.runCell(ctx, e)
		if r.Error != nil {
			out[name] = map[string]any{"status": "error", "ename": r.Error.Ename, "evalue": r.Error.Evalue, "traceback": r.Error.Traceback}
			continue
		}
		data := r.Data
		if data == nil {
			data = map[string]any{}
		}
		out[name] = map[string]any{"status": "ok", "data": data, "metadata": map[string]any{}}
	}
	return out
}

// valueOf reads a session variable's current value.
func (s *Session) valueOf(name string) (reflect.Value, bool) {
	v, ok := s.globals()[name]
	return v, ok
}

// globals returns the interpreter's package-level variables. yaegi's
// Globals panics while a failed compilation has left a symbol without a slot
// in the frame; the next successful run repairs that, so until then the
// answer is empty.
func (s *Session) globals() (g map[string]reflect.Value) {
	defer func() {
		if recover() != nil {
			g = map[string]reflect.Value{}
		}
	}()
	return s.yaegi.Globals()
}

// The executor process serves a Session as it is.
var (
	_ executor.Session = (*Session)(nil)
	_ executor.Counter = (*Session)(nil)
)
