package session

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/comm"
)

// The session serves the comms of its cells (executor.CommHost): package
// widgets opens them through the process's comm.Manager (Options.Comms),
// the front end's messages reach it at once, and the callbacks they defer
// run here, between cells, when the kernel asks.

// DeliverComm hands a comm message from the front end to the session's comms
// at once, even while a cell runs: it touches no interpreter state.
func (s *Session) DeliverComm(m comm.Message) (int, error) {
	if s.opts.Comms == nil {
		return 0, errors.New("the session has no comms")
	}
	return s.opts.Comms.Deliver(m)
}

// CommInfo returns the session's open comms, id → target name, of target
// only unless it is "".
func (s *Session) CommInfo(target string) map[string]string {
	if s.opts.Comms == nil {
		return map[string]string{}
	}
	return s.opts.Comms.Info(target)
}

// SetParent tells the session's comms the id of the request that runs now
// (an Output widget captures what has that parent).
func (s *Session) SetParent(msgID string) {
	if s.opts.Comms != nil {
		s.opts.Comms.SetParent(msgID)
	}
}

// RunDeferred runs the callbacks the comm message msgID deferred, in order,
// as cells run: in the interpreter, stopped by ctx (an interrupt drops the
// ones not yet run). A callback that panics is reported on stderr, inside
// the Output its wrapper captures into, so the report shows where the
// callback's output goes, and the session keeps every variable.
func (s *Session) RunDeferred(ctx context.Context, msgID string) Result {
	if s.opts.Comms == nil {
		return Result{}
	}
	for _, job := range s.opts.Comms.Take(msgID) {
		if ctx.Err() != nil {
			break
		}
		s.runJob(ctx, job)
	}
	s.opts.Comms.Finish()
	if ctx.Err() != nil {
		return interrupted()
	}
	return Result{}
}

// runJob runs one deferred job: its callback, inside its wrapper when it has
// one.
func (s *Session) runJob(ctx context.Context, job comm.Job) {
	defer func() {
		if r := recover(); r != nil { // a wrapper's bug, not the callback's panic
			fmt.Fprintf(s.opts.Stderr, "goaccel: a widget callback's wrapper panicked: %v\n", r)
		}
	}()
	run := func() { s.runCallback(ctx, job.Run) }
	if job.Around != nil {
		job.Around(run)
		return
	}
	run()
}

// callbackImport makes the session's runtime helpers visible to the
// interpreter's default file, where runCallback's call is evaluated.
const callbackImport = "import __goaccel " + `"` + runtimePath + `"`

// runCallback runs fn, a callback a cell registered, in the interpreter:
// through a call evaluated with ctx, so that an interrupt stops an
// interpreted loop in it as it stops a cell's.
func (s *Session) runCallback(ctx context.Context, fn func()) {
	if fn == nil {
		return
	}
	s.mu.Lock()
	needReset, needImport := s.reset, !s.callbackReady
	s.reset, s.callbackReady = false, true
	s.callback = fn
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.callback = nil
		s.mu.Unlock()
	}()
	if needReset {
		s.clearAfterPanic()
	}
	if needImport {
		if _, err := s.yaegi.Eval(callbackImport); err != nil {
			fmt.Fprintf(s.opts.Stderr, "goaccel: cannot run widget callbacks: %v\n", err)
			return
		}
	}
	s.stderr.take()
	_, err := s.yaegi.EvalWithContext(ctx, "__goaccel.RunCallback()")
	if err == nil {
		return
	}
	s.mu.Lock()
	s.reset = true
	s.mu.Unlock()
	if ctx.Err() != nil {
		return // RunDeferred reports the interrupt
	}
	var p interp.Panic
	if errors.As(err, &p) {
		fmt.Fprint(s.opts.Stderr, s.callbackPanic(p))
		return
	}
	fmt.Fprintf(s.opts.Stderr, "a widget callback failed: %v\n", err)
}

// runRegisteredCallback is __goaccel.RunCallback: it calls the callback
// runCallback set.
func (s *Session) runRegisteredCallback() {
	s.mu.Lock()
	fn := s.callback
	s.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// callbackPanic is the report of a callback's panic: its value, then each
// interpreted frame at its cell and line, innermost first.
func (s *Session) callbackPanic(p interp.Panic) string {
	var b strings.Builder
	fmt.Fprintf(&b, "panic in a widget callback: %v\n", p.Value)
	for _, f := range s.stderr.take() {
		at, ok := s.origin(f.file, f.line, 0)
		if !ok {
			continue
		}
		s.mu.Lock()
		cell := 0
		if src := s.sources[at.run]; src != nil {
			cell = src.count
		}
		s.mu.Unlock()
		fmt.Fprintf(&b, "  in %s, cell [%d] line %d: %s\n", strings.TrimPrefix(f.fn, "main."), cell, at.Line, strings.TrimSpace(s.lineText(at.run, at.Line)))
	}
	b.WriteString("(the session keeps its variables; the widget keeps working)\n")
	return b.String()
}
