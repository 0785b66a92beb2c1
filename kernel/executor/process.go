package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// spawn starts a child process and its reader goroutines. Called with s.mu held.
func (s *Supervisor) spawn() (*child, error) {
	if len(s.cfg.Command) == 0 {
		return nil, errors.New("executor: no command configured")
	}
	secret, err := newSecret()
	if err != nil {
		return nil, err
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
	if s.state == "" {
		f, err := os.CreateTemp("", "goaccel-session-*.json")
		if err != nil {
			return nil, fmt.Errorf("executor: make the session's state file: %w", err)
		}
		f.Close()
		s.state = f.Name()
	}
	cmd := exec.Command(s.cfg.Command[0], s.cfg.Command[1:]...)
	cmd.Env, cmd.Dir = s.cfg.Env, s.cfg.Dir
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], EnvState+"="+s.state)
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.ExtraFiles = []*os.File{reqR, evW}
	// Own process group: a terminal's Ctrl-C reaches the kernel only (which
	// forwards it as an interrupt), and kill reaches the child's own children.
	// The child never outlives a kernel that was killed outright: it leaves
	// when the request pipe closes (Child.Serve), and on Linux the kernel's
	// parent-death signal kills it too (childAttr).
	cmd.SysProcAttr = childAttr()
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
		cmd: cmd, reqW: reqW, fw: newFrameWriter(reqW),
		pending: map[uint64]chan event{},
		dead:    make(chan struct{}),
		log:     s.cfg.Log,
	}
	c.tail = &tailWriter{max: 4 << 10}
	prefix := syncPrefix(secret)
	c.out = newOutPipe("stdout", prefix, s.cfg.Output)
	c.err = newOutPipe("stderr", prefix, func(name, text string) {
		c.tail.Write([]byte(text))
		s.cfg.Output(name, text)
	})
	// The pipe's buffer takes the hello at once; a child that dies before
	// reading it is reported by wait like any other death.
	if err := c.write(request{Op: opHello, Value: secret}); err != nil {
		c.log.Warn("send hello to executor", "err", err)
	}
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
	fw   *frameWriter

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
	if err := c.fw.write(r); err != nil {
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
	for {
		b, err := readFrame(r)
		if err != nil {
			if err != io.EOF {
				c.log.Warn("executor event pipe broke", "err", err)
			}
			break
		}
		var ev event
		if err := json.Unmarshal(b, &ev); err != nil {
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
	case evComm:
		if ev.Comm != nil {
			s.cfg.Comm(*ev.Comm)
		}
	case evInput:
		go s.answerInput(c, ev)
	case evStopping:
		s.mu.Lock()
		if r := s.running; r != nil && r.c == c {
			r.graceful = true
		}
		s.mu.Unlock()
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
