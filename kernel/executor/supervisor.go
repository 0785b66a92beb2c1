package executor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// RestartedNote is what a cell's error says when the executor had to be restarted.
const RestartedNote = "executor restarted; variables were lost"

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
}

// running is the state of the execute in flight.
type running struct {
	id          uint64
	c           *child
	input       func(ctx context.Context, prompt string, password bool) (string, error)
	ctx         context.Context
	cancel      context.CancelFunc
	interrupted bool
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
	return &Supervisor{cfg: cfg}
}

// Start starts the child now (it otherwise starts on the first request).
func (s *Supervisor) Start() error {
	_, err := s.current()
	return err
}

// current returns the live child, starting one when there is none.
func (s *Supervisor) current() (*child, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.child != nil && !s.child.isDead() {
		return s.child, nil
	}
	c, err := s.spawn()
	if err != nil {
		return nil, err
	}
	s.child = c
	return c, nil
}

// Execute runs one cell in the child and waits for it. It never fails: a
// child that cannot start, crashes or is killed yields a Result with an Error
// saying so.
func (s *Supervisor) Execute(ctx context.Context, req ExecRequest) Outcome {
	s.mu.Lock()
	notice := s.notice
	s.notice = ""
	s.mu.Unlock()
	if notice != "" {
		s.cfg.Output("stderr", notice+"\n")
	}
	c, err := s.current()
	if err != nil {
		return failed("ExecutorError", err.Error(), false)
	}
	id := s.nextID.Add(1)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &running{id: id, c: c, input: req.Input, ctx: rctx, cancel: cancel}
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
	ev, err := c.call(ctx, request{ID: id, Op: opExecute, Code: req.Code, AllowStdin: req.AllowStdin && req.Input != nil, Exprs: req.UserExpressions})
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
	s.mu.Unlock()
	if _, serr := s.current(); serr != nil {
		return failed("ExecutorCrashed", dead.reason+"; the executor could not be restarted: "+serr.Error(), false)
	}
	ename := "ExecutorCrashed"
	if dead.killed {
		ename = "Interrupted"
	}
	return failed(ename, dead.reason+"; "+RestartedNote, true)
}

func failed(ename, evalue string, restarted bool) Outcome {
	return Outcome{Restarted: restarted, Result: Result{
		Interrupted: ename == "Interrupted",
		Error:       &Error{Ename: ename, Evalue: evalue, Traceback: []string{ename + ": " + evalue}},
	}}
}

// Interrupt stops the cell in flight: the child cancels the cell's context;
// if the cell has not finished after InterruptGrace (it is blocked in
// compiled code), the child is killed and restarted. Without a cell in
// flight Interrupt does nothing.
func (s *Supervisor) Interrupt() {
	s.mu.Lock()
	r := s.running
	if r != nil {
		r.interrupted = true
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
		still := s.running == r
		s.mu.Unlock()
		if still {
			r.c.kill(fmt.Sprintf("the cell did not stop within %v of the interrupt (probably blocked in compiled code), so the executor was killed", s.cfg.InterruptGrace))
		}
	}()
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
	if c == nil {
		return nil
	}
	c.reqW.Close()
	select {
	case <-c.dead:
	case <-time.After(time.Second):
		c.kill("kernel shut down")
		<-c.dead
	}
	return nil
}

// spawn starts a child process and its reader goroutines. Called with s.mu held.
func (s *Supervisor) spawn() (*child, error) {
	if len(s.cfg.Command) == 0 {
		return nil, errors.New("executor: no command configured")
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("executor: request pipe: %w", err)
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("executor: event pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("executor: stdout pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("executor: stderr pipe: %w", err)
	}
	cmd := exec.Command(s.cfg.Command[0], s.cfg.Command[1:]...)
	cmd.Env, cmd.Dir = s.cfg.Env, s.cfg.Dir
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.ExtraFiles = []*os.File{reqR, evW}
	// Own process group: a terminal's Ctrl-C reaches the kernel only (which
	// forwards it as an interrupt), and kill reaches the child's own children.
	// Pdeathsig: never outlive a kernel that was killed outright.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	startErr := cmd.Start()
	for _, f := range []*os.File{reqR, evW, outW, errW} {
		f.Close()
	}
	if startErr != nil {
		for _, f := range []*os.File{reqW, evR, outR, errR} {
			f.Close()
		}
		return nil, fmt.Errorf("executor: start %s: %w", s.cfg.Command[0], startErr)
	}
	c := &child{
		cmd: cmd, reqW: reqW, enc: json.NewEncoder(reqW),
		pending: map[uint64]chan event{},
		dead:    make(chan struct{}),
		log:     s.cfg.Log,
	}
	c.tail = &tailWriter{max: 4 << 10}
	c.out = newOutPipe("stdout", s.cfg.Output)
	c.err = newOutPipe("stderr", func(name, text string) {
		c.tail.Write([]byte(text))
		s.cfg.Output(name, text)
	})
	go c.out.run(outR)
	go c.err.run(errR)
	go c.readEvents(evR, s)
	go c.wait(s)
	return c, nil
}

// child is one executor process.
type child struct {
	cmd  *exec.Cmd
	log  *slog.Logger
	reqW io.WriteCloser

	wmu sync.Mutex
	enc *json.Encoder

	mu         sync.Mutex
	pending    map[uint64]chan event
	killReason string
	death      *deathError

	out, err *outPipe
	tail     *tailWriter
	dead     chan struct{} // closed once the process exited and its output drained
}

// deathError says why a child died during a call.
type deathError struct {
	reason string
	killed bool // killed by the supervisor (interrupt timeout or shutdown)
}

func (e *deathError) Error() string { return e.reason }

func (c *child) isDead() bool {
	select {
	case <-c.dead:
		return true
	default:
		return false
	}
}

func (c *child) write(r request) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if err := c.enc.Encode(r); err != nil {
		return fmt.Errorf("executor: send %s: %w", r.Op, err)
	}
	return nil
}

// call sends r and waits for its done event or the child's death.
func (c *child) call(ctx context.Context, r request) (event, error) {
	ch := make(chan event, 1)
	c.mu.Lock()
	if c.death != nil {
		c.mu.Unlock()
		return event{}, c.death
	}
	c.pending[r.ID] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, r.ID)
		c.mu.Unlock()
	}()
	if err := c.write(r); err != nil {
		<-c.dead
		return event{}, c.deathErr()
	}
	select {
	case ev := <-ch:
		return ev, nil
	case <-c.dead:
		select {
		case ev := <-ch:
			return ev, nil
		default:
		}
		return event{}, c.deathErr()
	case <-ctx.Done():
		return event{}, ctx.Err()
	}
}

func (c *child) deathErr() *deathError {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.death
}

// kill kills the child's process group, recording why.
func (c *child) kill(reason string) {
	c.mu.Lock()
	if c.killReason == "" {
		c.killReason = reason
	}
	c.mu.Unlock()
	if p := c.cmd.Process; p != nil {
		_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	}
}

// readEvents dispatches the child's events until its event pipe closes.
func (c *child) readEvents(r io.Reader, s *Supervisor) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 256<<20)
	for sc.Scan() {
		var ev event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			c.log.Warn("executor sent a malformed event", "err", err)
			continue
		}
		if ev.Sync > 0 {
			// Publish the output printed before this event first.
			c.out.waitSync(ev.Sync, 2*time.Second)
			c.err.waitSync(ev.Sync, 2*time.Second)
		}
		c.dispatch(s, ev)
		if ev.Sync > 0 {
			c.out.release(ev.Sync)
			c.err.release(ev.Sync)
		}
	}
	// No more events: never hold output back waiting for one.
	c.out.release(^uint64(0))
	c.err.release(^uint64(0))
}

// dispatch hands on one event from the child.
func (c *child) dispatch(s *Supervisor, ev event) {
	switch ev.Kind {
	case evDisplay:
		s.cfg.Display(ev.MsgType, ev.Content)
	case evInput:
		go s.answerInput(c, ev)
	case evDone:
		c.mu.Lock()
		ch := c.pending[ev.ID]
		c.mu.Unlock()
		if ch != nil {
			ch <- ev
		}
	default:
		c.log.Warn("executor sent an unknown event", "kind", ev.Kind)
	}
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

// wait reaps the child, drains its output, and records why it died.
func (c *child) wait(s *Supervisor) {
	werr := c.cmd.Wait()
	// Output written just before dying (a panic trace) comes first.
	c.out.waitEOF(500 * time.Millisecond)
	c.err.waitEOF(500 * time.Millisecond)
	c.reqW.Close()
	c.mu.Lock()
	reason := c.killReason
	killed := reason != ""
	if !killed {
		reason = describeExit(c.cmd.ProcessState, werr, c.tail.String())
	}
	c.death = &deathError{reason: reason, killed: killed}
	busy := len(c.pending) > 0
	c.mu.Unlock()
	close(c.dead)
	if !busy && !killed {
		s.childDiedIdle(c, reason)
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
	s.notice = "note: " + reason + " after the previous cell; " + RestartedNote
	s.mu.Unlock()
	s.cfg.Log.Warn("executor died between cells", "reason", reason)
	s.cfg.Output("stderr", "\n"+reason+"; "+RestartedNote+"\n")
}
