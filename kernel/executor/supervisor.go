package executor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
)

// RestartedNote starts what a cell's error says when the executor had to be
// restarted; the new executor's restore note (which declarations came back,
// which variables were lost) follows it.
const RestartedNote = "executor restarted"

// Config configures a Supervisor.
type Config struct {
	// Command is the child's argv, e.g. {"/path/goaccel", "__executor"}.
	Command []string
	// Env is the child's environment (nil: the kernel's).
	Env []string
	// Dir is the child's working directory ("": the kernel's).
	Dir string
	// Output receives the child's stdout ("stdout") and stderr ("stderr")
	// text in batches, live while a cell runs.
	Output func(stream, text string)
	// Display receives display_data, update_display_data and clear_output
	// messages from cells, in order with Output.
	Display func(msgType string, content map[string]any)
	// Comm receives the comm messages the session sends (widgets), in
	// order with Output and Display.
	Comm func(m comm.Message)
	// InterruptGrace is how long an interrupted cell may take to stop before
	// the child is killed and restarted (default 2 s).
	InterruptGrace time.Duration
	// Log receives diagnostics (default slog.Default()).
	Log *slog.Logger
}

// ExecRequest is one cell to execute.
type ExecRequest struct {
	Code            string
	AllowStdin      bool
	UserExpressions map[string]string
	// ExecutionCount is the number the client shows for the cell (In [N]);
	// the session names cells by it in errors (0: unknown).
	ExecutionCount int
	// Parent is the msg_id of the execute_request: what an Output widget
	// the cell captures into shows.
	Parent string
	// Input asks the client for one line of stdin (an input_request); ctx
	// ends when the cell is interrupted. Used only when AllowStdin is set.
	Input func(ctx context.Context, prompt string, password bool) (string, error)
}

// Outcome is what executing a cell produced.
type Outcome struct {
	Result          Result
	UserExpressions map[string]any
	// Restarted is set when the executor died or was killed during the cell
	// and a fresh one (with no variables) replaced it.
	Restarted bool
}

// Supervisor owns the executor child process: it starts it, restarts it
// after a crash, forwards interrupts and kills a child that ignores one.
type Supervisor struct {
	cfg    Config
	nextID atomic.Uint64

	mu      sync.Mutex
	child   *child
	running *running // the execute in flight, if any
	notice  string   // a crash that happened between cells, told to the next one
	restore bool     // the next child replaces one that died: it restores the session
	state   string   // the state file children restore from (EnvState)
}

// running is the state of the execute in flight.
type running struct {
	id          uint64
	c           *child
	input       func(ctx context.Context, prompt string, password bool) (string, error)
	ctx         context.Context
	cancel      context.CancelFunc
	interrupted bool
	graceful    bool // the child answers the last interrupt gracefully (Stopper)
}

// NewSupervisor returns a Supervisor; the child starts on Start or the first request.
func NewSupervisor(cfg Config) *Supervisor {
	if cfg.InterruptGrace <= 0 {
		cfg.InterruptGrace = 2 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.Output == nil {
		cfg.Output = func(string, string) {}
	}
	if cfg.Display == nil {
		cfg.Display = func(string, map[string]any) {}
	}
	if cfg.Comm == nil {
		cfg.Comm = func(comm.Message) {}
	}
	return &Supervisor{cfg: cfg}
}

// Start starts the child now (it otherwise starts on the first request).
func (s *Supervisor) Start() error {
	_, err := s.current()
	return err
}

// current returns the live child, starting one when there is none. A child
// that replaces one that died between cells restores the session, and the
// next cell is told what came back.
func (s *Supervisor) current() (*child, error) {
	s.mu.Lock()
	if s.child != nil && !s.child.isDead() {
		defer s.mu.Unlock()
		return s.child, nil
	}
	c, err := s.spawn()
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	s.child = c
	restore := s.restore
	s.restore = false
	s.mu.Unlock()
	if restore {
		note := noteOf(s.restoreIn(c))
		s.mu.Lock()
		s.notice += "; " + note
		s.mu.Unlock()
	}
	return c, nil
}

// errNothingToRestore is restoreIn's answer when the session had nothing to
// restore.
var errNothingToRestore = errors.New("the session had nothing to restore")

// restoreIn has a new child restore the session its predecessor saved and
// returns its note ("functions and types restored; variables lost: x"), or
// errNothingToRestore, or an error saying why the session was lost.
func (s *Supervisor) restoreIn(c *child) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ev, err := c.call(ctx, request{ID: s.nextID.Add(1), Op: opRestore})
	if err != nil {
		return "", fmt.Errorf("the session could not be restored (%w): declarations and variables were lost", err)
	}
	if ev.Status == "" {
		return "", errNothingToRestore
	}
	return ev.Status, nil
}

// noteOf is what the user is told of a restore: its note, or why there was
// none.
func noteOf(note string, err error) string {
	if err != nil {
		return err.Error()
	}
	return note
}

// switchTo replaces the child with one running command (Result.Switch); the
// caller has it restore the session.
func (s *Supervisor) switchTo(old *child, command []string) (*child, error) {
	s.mu.Lock()
	s.cfg.Command = command
	cur := s.child // old, or one a request started after old died
	s.child = nil
	s.restore = false // the caller restores, not current
	s.mu.Unlock()
	stop(old, "replaced by an executor with more packages")
	if cur != nil && cur != old {
		stop(cur, "replaced by an executor with more packages")
	}
	return s.current()
}

// stop closes c's request pipe, waits up to a second, then kills it.
func stop(c *child, reason string) {
	c.reqW.Close()
	select {
	case <-c.dead:
	case <-time.After(time.Second):
		c.kill(reason)
		<-c.dead
	}
}

// Execute runs one cell in the child and waits for it. It never fails: a
// child that cannot start, crashes or is killed yields a Result with an Error
// saying so.
func (s *Supervisor) Execute(ctx context.Context, req ExecRequest) Outcome {
	c, err := s.current()
	s.mu.Lock()
	notice := s.notice
	s.notice = ""
	s.mu.Unlock()
	if notice != "" {
		s.cfg.Output("stderr", notice+"\n")
	}
	if err != nil {
		return failed("ExecutorError", err.Error(), false)
	}
	out := s.execute(ctx, c, req)
	if sw := out.Result.Switch; len(sw) > 0 && out.Result.Error == nil {
		c, err := s.switchTo(c, sw)
		if err != nil {
			return failed("ExecutorError", "start the executor with the cell's packages: "+err.Error(), false)
		}
		if note, err := s.restoreIn(c); !errors.Is(err, errNothingToRestore) {
			s.cfg.Output("stderr", noteOf(note, err)+"\n")
		}
		out = s.execute(ctx, c, req)
		if len(out.Result.Switch) > 0 {
			return failed("ExecutorError", "the executor built for the cell's packages asked for another one (a goaccel bug: please report it)", false)
		}
	}
	return out
}

// execute runs one cell in c.
func (s *Supervisor) execute(ctx context.Context, c *child, req ExecRequest) Outcome {
	return s.runInterruptible(ctx, c, request{Op: opExecute, Code: req.Code, AllowStdin: req.AllowStdin && req.Input != nil,
		Exprs: req.UserExpressions, Count: req.ExecutionCount, Parent: req.Parent}, req.Input)
}

// runInterruptible runs r in c as the request in flight, which Interrupt
// stops: a cell, or the work a comm message deferred.
func (s *Supervisor) runInterruptible(ctx context.Context, c *child, req request, input func(ctx context.Context, prompt string, password bool) (string, error)) Outcome {
	id := s.nextID.Add(1)
	req.ID = id
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &running{id: id, c: c, input: input, ctx: rctx, cancel: cancel}
	s.mu.Lock()
	s.running = r
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.running == r {
			s.running = nil
		}
		s.mu.Unlock()
	}()
	ev, err := c.call(ctx, req)
	if err != nil {
		return s.lost(c, err)
	}
	out := Outcome{UserExpressions: ev.UserExpressions}
	if ev.Result != nil {
		out.Result = *ev.Result
	}
	return out
}

// lost turns a child that died during a call into the cell's error.
func (s *Supervisor) lost(c *child, err error) Outcome {
	var dead *deathError
	if !errors.As(err, &dead) {
		return failed("ExecutorError", err.Error(), false)
	}
	s.cfg.Log.Warn("executor died during a cell", "reason", dead.reason)
	s.mu.Lock()
	if s.child == c {
		s.child = nil
	}
	s.restore = false // restored here, not by current
	s.mu.Unlock()
	nc, serr := s.current()
	if serr != nil {
		return failed("ExecutorCrashed", dead.reason+"; the executor could not be restarted: "+serr.Error(), false)
	}
	ename := "ExecutorCrashed"
	if dead.killed {
		ename = "Interrupted"
	}
	return failed(ename, dead.reason+"; "+RestartedNote+"; "+noteOf(s.restoreIn(nc)), true)
}

func failed(ename, evalue string, restarted bool) Outcome {
	return Outcome{Restarted: restarted, Result: Result{
		Interrupted: ename == "Interrupted",
		Error:       &Error{Ename: ename, Evalue: evalue, Traceback: []string{ename + ": " + evalue}},
	}}
}

// Interrupt stops the cell in flight: the child cancels the cell's context;
// if the cell has not finished after InterruptGrace (it is blocked in
// compiled code), the child is killed and restarted. A child whose session
// answers gracefully (a launch whose workers save their state first; see
// Stopper) says so and is left to finish; the next Interrupt cancels the
// cell. Without a cell in flight Interrupt does nothing.
func (s *Supervisor) Interrupt() {
	s.mu.Lock()
	r := s.running
	if r != nil {
		r.interrupted, r.graceful = true, false
	}
	s.mu.Unlock()
	if r == nil {
		return
	}
	r.cancel() // ends a pending input request on the kernel side
	if err := r.c.write(request{Op: opInterrupt}); err != nil {
		s.cfg.Log.Warn("send interrupt to executor", "err", err)
	}
	go func() {
		t := time.NewTimer(s.cfg.InterruptGrace)
		defer t.Stop()
		select {
		case <-r.c.dead:
			return
		case <-t.C:
		}
		s.mu.Lock()
		still := s.running == r && !r.graceful
		s.mu.Unlock()
		if still {
			r.c.kill(fmt.Sprintf("the cell did not stop within %v of the interrupt (probably blocked in compiled code), so the executor was killed", s.cfg.InterruptGrace))
		}
	}()
}

// DeliverComm hands a comm message from the front end to the session at
// once, even while a cell runs, and returns how many pieces of work it
// deferred for RunDeferred. The message's handling error (an unknown comm, a
// malformed message) is err; the session is never affected.
func (s *Supervisor) DeliverComm(ctx context.Context, m comm.Message) (deferred int, err error) {
	ev, err := s.ask(ctx, request{Op: opComm, Comm: &m})
	if err != nil {
		return 0, err
	}
	if ev.Err != "" {
		return ev.Deferred, errors.New(ev.Err)
	}
	return ev.Deferred, nil
}

// CommInfo returns the session's open comms (id → target name), of target
// only unless it is "".
func (s *Supervisor) CommInfo(ctx context.Context, target string) (map[string]string, error) {
	ev, err := s.ask(ctx, request{Op: opCommInfo, Code: target})
	return ev.Comms, err
}

// RunDeferred runs the work the comm message msgID deferred (widget
// callbacks) in the session, between cells, as part of the request parent
// (the id an Output widget captures: msgID itself, or the cell whose end the
// callbacks join); Interrupt stops it as it stops a cell. A child that
// crashes meanwhile is restarted, as during a cell.
func (s *Supervisor) RunDeferred(ctx context.Context, msgID, parent string) Outcome {
	c, err := s.current()
	if err != nil {
		return failed("ExecutorError", err.Error(), false)
	}
	return s.runInterruptible(ctx, c, request{Op: opDeferred, Parent: parent, Deferred: msgID}, nil)
}

// IsComplete asks the child whether code is a complete cell.
func (s *Supervisor) IsComplete(ctx context.Context, code string) (status, indent string, err error) {
	ev, err := s.ask(ctx, request{Op: opIsComplete, Code: code})
	return ev.Status, ev.Indent, err
}

// Complete asks the child for completions at cursor (code points).
func (s *Supervisor) Complete(ctx context.Context, code string, cursor int) (matches []string, start, end int, err error) {
	ev, err := s.ask(ctx, request{Op: opComplete, Code: code, Cursor: cursor})
	return ev.Matches, ev.Start, ev.End, err
}

// Inspect asks the child for documentation of the symbol at cursor.
func (s *Supervisor) Inspect(ctx context.Context, code string, cursor, detail int) (found bool, data map[string]any, err error) {
	ev, err := s.ask(ctx, request{Op: opInspect, Code: code, Cursor: cursor, Detail: detail})
	return ev.Found, ev.Data, err
}

func (s *Supervisor) ask(ctx context.Context, r request) (event, error) {
	c, err := s.current()
	if err != nil {
		return event{}, err
	}
	r.ID = s.nextID.Add(1)
	ev, err := c.call(ctx, r)
	if err != nil {
		var dead *deathError
		if errors.As(err, &dead) {
			s.mu.Lock()
			if s.child == c {
				s.child = nil
			}
			s.restore = true
			s.notice = "the executor crashed while answering a " + r.Op + " request (" + dead.reason + "); " + RestartedNote
			s.mu.Unlock()
		}
		return event{}, fmt.Errorf("executor %s: %w", r.Op, err)
	}
	return ev, nil
}

// Close stops the child: it closes its request pipe, waits up to a second,
// then kills its process group.
func (s *Supervisor) Close() error {
	s.mu.Lock()
	c := s.child
	s.child = nil
	s.mu.Unlock()
	if s.state != "" {
		os.Remove(s.state)
	}
	if c == nil {
		return nil
	}
	stop(c, "kernel shut down")
	return nil
}

// answerInput relays a cell's stdin read to the client and the reply back.
func (s *Supervisor) answerInput(c *child, ev event) {
	s.mu.Lock()
	r := s.running
	s.mu.Unlock()
	reply := request{Op: opInputReply}
	switch {
	case r == nil || r.id != ev.ID || r.input == nil:
		reply.Err = "stdin not available: no cell is waiting for input"
	default:
		v, err := r.input(r.ctx, ev.Prompt, ev.Password)
		if err != nil {
			reply.Err = err.Error()
		}
		reply.Value = v
	}
	if err := c.write(reply); err != nil {
		s.cfg.Log.Warn("send input reply to executor", "err", err)
	}
}

// childDiedIdle reports a crash between cells (a goroutine that panicked
// after its cell finished): at once on stderr, and to the next cell.
func (s *Supervisor) childDiedIdle(c *child, reason string) {
	s.mu.Lock()
	if s.child != c {
		s.mu.Unlock()
		return
	}
	s.child = nil
	s.restore = true
	s.notice = "note: " + reason + " after the previous cell; " + RestartedNote
	s.mu.Unlock()
	s.cfg.Log.Warn("executor died between cells", "reason", reason)
	s.cfg.Output("stderr", "\n"+reason+"; "+RestartedNote+" (the next cell restores the session)\n")
}
