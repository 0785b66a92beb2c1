package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
)

// Child is the executor side: it serves a Session to the parent kernel.
// It also implements internal/host.Display (Send), so display calls in
// cells reach the parent in order with printed output, and comm.Transport
// (SendComm), which carries the session's comm messages the same way.
type Child struct {
	in             io.Reader
	out            io.Writer
	stdout, stderr io.Writer

	mu     sync.Mutex // guards syncN, the writes of markers, curID and cancel
	fw     *frameWriter
	prefix []byte // sync markers' prefix, from the parent's hello
	syncN  uint64
	curID  uint64
	cancel context.CancelFunc
	inputs chan request
}

// NewChild returns a Child reading requests from in and writing events to
// out; stdout and stderr are the process's fd 1 and 2 (the parent reads them).
func NewChild(in io.Reader, out io.Writer, stdout, stderr io.Writer) *Child {
	return &Child{
		in: in, out: out, stdout: stdout, stderr: stderr,
		fw:     newFrameWriter(out),
		inputs: make(chan request, 1),
	}
}

// send writes ev, first writing an output marker when withSync is set.
func (c *Child) send(ev event, withSync bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if withSync && c.prefix != nil {
		c.syncN++
		ev.Sync = c.syncN
		m := syncMarker(c.prefix, c.syncN)
		// Both writes matter: the parent waits for the marker on each pipe.
		if _, err := c.stdout.Write(m); err != nil {
			ev.Sync = 0
		} else if _, err := c.stderr.Write(m); err != nil {
			ev.Sync = 0
		}
	}
	if err := c.fw.write(ev); err != nil {
		return fmt.Errorf("executor: send %s event: %w", ev.Kind, err)
	}
	return nil
}

// Send publishes a display message from the running cell (host.Display).
func (c *Child) Send(msgType string, content map[string]any) {
	c.mu.Lock()
	id := c.curID
	c.mu.Unlock()
	if err := c.send(event{ID: id, Kind: evDisplay, MsgType: msgType, Content: content}, true); err != nil {
		fmt.Fprintln(c.stderr, err)
	}
}

// SendComm sends a comm message to the front end (comm.Transport), in order
// with printed output: an Output widget's capture starts and ends around
// exactly what was printed in between.
func (c *Child) SendComm(m comm.Message) {
	c.mu.Lock()
	id := c.curID
	c.mu.Unlock()
	if err := c.send(event{ID: id, Kind: evComm, Comm: &m}, true); err != nil {
		fmt.Fprintln(c.stderr, err)
	}
}

// Serve answers requests until the parent closes the request pipe (then it
// returns nil) or ctx ends. Cells run one at a time; interrupts and input
// replies are handled while a cell runs.
func (c *Child) Serve(ctx context.Context, s Session) error {
	hello, err := c.readRequest()
	if err == io.EOF {
		return nil // the kernel went away before saying anything
	}
	if err != nil {
		return err
	}
	if hello.Op != opHello || hello.Value == "" {
		return fmt.Errorf("executor: the kernel's first request is %q, not a hello (mismatched goaccel binaries?)", hello.Op)
	}
	c.mu.Lock()
	c.prefix = syncPrefix(hello.Value)
	c.mu.Unlock()
	work := make(chan request, 16)
	readErr := make(chan error, 1)
	gone := make(chan struct{}) // the request pipe ended: the kernel is gone
	go func() {
		defer close(gone)
		defer close(work)
		for {
			r, err := c.readRequest()
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				readErr <- err
				return
			}
			switch r.Op {
			case opInterrupt:
				if st, ok := s.(Stopper); ok && st.Interrupt() {
					if err := c.send(event{ID: r.ID, Kind: evStopping}, false); err != nil {
						fmt.Fprintln(c.stderr, err)
					}
					continue
				}
				c.interrupt()
			case opInputReply:
				select {
				case c.inputs <- r:
				default: // nobody is waiting (the read was interrupted)
				}
			case opComm, opCommInfo:
				// At once, even while a cell runs: a running cell reads a
				// widget's new value, a Stop button stops a launch.
				if err := c.serveComm(s, r); err != nil {
					readErr <- err
					return
				}
			default:
				work <- r
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case r, ok := <-work:
			if !ok {
				return <-readErr
			}
			done := make(chan error, 1)
			go func() { done <- c.serveOne(ctx, s, r) }()
			select {
			case err := <-done:
				if err != nil {
					return err
				}
			case <-gone:
				select {
				case err := <-done: // the kernel closed the pipe after its answer
					return err
				case <-time.After(100 * time.Millisecond):
				}
				// Nobody will read the result: stop the cell and leave, even
				// if it is stuck in compiled code.
				c.interrupt()
				return errors.New("executor: the kernel closed the request pipe during a cell")
			}
		}
	}
}

// readRequest reads the next request; io.EOF means the kernel closed the pipe.
func (c *Child) readRequest() (request, error) {
	var r request
	b, err := readFrame(c.in)
	if err != nil {
		if err == io.EOF {
			return r, err
		}
		return r, fmt.Errorf("executor: read a request from the kernel: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("executor: bad request from kernel: %w", err)
	}
	return r, nil
}

// interrupt cancels the running cell's context, if a cell runs.
func (c *Child) interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
}

func (c *Child) serveOne(ctx context.Context, s Session, r request) error {
	switch r.Op {
	case opExecute:
		return c.execute(ctx, s, r)
	case opIsComplete:
		st, ind := s.IsComplete(r.Code)
		return c.send(event{ID: r.ID, Kind: evDone, Status: st, Indent: ind}, false)
	case opComplete:
		m, start, end := s.Complete(r.Code, r.Cursor)
		return c.send(event{ID: r.ID, Kind: evDone, Matches: m, Start: start, End: end}, false)
	case opRestore:
		note := "variables were lost"
		if rs, ok := s.(Restorer); ok {
			note = rs.Restore(ctx)
		}
		return c.send(event{ID: r.ID, Kind: evDone, Status: note}, true)
	case opInspect:
		found, data := s.Inspect(r.Code, r.Cursor, r.Detail)
		return c.send(event{ID: r.ID, Kind: evDone, Found: found, Data: data}, false)
	case opDeferred:
		return c.runDeferred(ctx, s, r)
	}
	return c.send(event{ID: r.ID, Kind: evDone, Result: &Result{Error: &Error{
		Ename: "ExecutorError", Evalue: "unknown request " + r.Op, Traceback: []string{"unknown request " + r.Op},
	}}}, false)
}

func (c *Child) execute(ctx context.Context, s Session, r request) error {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	c.curID, c.cancel = r.ID, cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.cancel = nil
		c.mu.Unlock()
	}()
	// Drop an input reply left over from an interrupted read.
	select {
	case <-c.inputs:
	default:
	}
	if r.AllowStdin {
		s.SetStdin(&inputReader{ask: func(prompt string) (string, error) { return c.ask(cctx, r.ID, prompt) }})
	} else {
		s.SetStdin(nil)
	}
	if counter, ok := s.(Counter); ok && r.Count > 0 {
		counter.SetExecutionCount(r.Count)
	}
	if p, ok := s.(Parenter); ok {
		p.SetParent(r.Parent)
	}
	res := s.Execute(cctx, r.Code)
	if cctx.Err() != nil && ctx.Err() == nil && !res.Interrupted && res.Error == nil {
		res.Interrupted = true
	}
	ev := event{ID: r.ID, Kind: evDone, Result: &res}
	if res.Error == nil && len(r.Exprs) > 0 {
		ev.UserExpressions = s.UserExpressions(cctx, r.Exprs)
	}
	return c.send(ev, true)
}

// serveComm answers a comm message or a comm_info request, on the request
// reader's goroutine. A session without comms closes every comm the front
// end opens and lists none.
func (c *Child) serveComm(s Session, r request) error {
	host, ok := s.(CommHost)
	ev := event{ID: r.ID, Kind: evDone}
	switch {
	case r.Op == opCommInfo && ok:
		ev.Comms = host.CommInfo(r.Code)
	case r.Op == opCommInfo:
	case r.Comm == nil:
		ev.Err = "a comm request without its message"
	case ok:
		n, err := host.DeliverComm(*r.Comm)
		ev.Deferred = n
		if err != nil {
			ev.Err = err.Error()
		}
	case r.Comm.Type == "comm_open":
		c.SendComm(comm.Message{Type: "comm_close", CommID: r.Comm.CommID, Parent: r.Comm.Parent})
		ev.Err = "this executor has no comm targets"
	}
	return c.send(ev, false)
}

// runDeferred runs the work a comm message deferred, interruptible as a cell.
func (c *Child) runDeferred(ctx context.Context, s Session, r request) error {
	host, ok := s.(CommHost)
	if !ok {
		return c.send(event{ID: r.ID, Kind: evDone, Result: &Result{}}, true)
	}
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	c.curID, c.cancel = r.ID, cancel
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.cancel = nil
		c.mu.Unlock()
	}()
	s.SetStdin(nil)
	if p, ok := s.(Parenter); ok {
		p.SetParent(r.Parent)
	}
	key := r.Deferred
	if key == "" {
		key = r.Parent
	}
	res := host.RunDeferred(cctx, key)
	if cctx.Err() != nil && ctx.Err() == nil && !res.Interrupted && res.Error == nil {
		res.Interrupted = true
	}
	return c.send(event{ID: r.ID, Kind: evDone, Result: &res}, true)
}

// ask sends an input request to the parent and waits for the reply.
func (c *Child) ask(ctx context.Context, id uint64, prompt string) (string, error) {
	if err := c.send(event{ID: id, Kind: evInput, Prompt: prompt}, true); err != nil {
		return "", err
	}
	select {
	case <-ctx.Done():
		return "", errors.New("input interrupted")
	case r := <-c.inputs:
		if r.Err != "" {
			return "", errors.New(r.Err)
		}
		return r.Value, nil
	}
}

// inputReader is a cell's os.Stdin when the client allows input: each time
// its buffer is empty it asks the client for one line.
type inputReader struct {
	ask func(prompt string) (string, error)
	buf []byte
}

func (r *inputReader) Read(p []byte) (int, error) {
	if len(r.buf) == 0 {
		line, err := r.ask("")
		if err != nil {
			return 0, fmt.Errorf("read stdin: %w", err)
		}
		r.buf = []byte(line + "\n")
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}
