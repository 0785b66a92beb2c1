package workers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/goaccel/goaccel/internal/workerinfo"
)

// ErrStopped is wrapped by the error of a launch whose workers stopped on
// request after saving their state (a *StoppedError).
var ErrStopped = errors.New("stopped on request")

// StoppedError is what Run returns when the workers stopped on request:
// each finished its step, saved its state in Checkpoint (the training's
// automatic checkpoint folder) and left. A launch with Options.Resume
// continues from there.
type StoppedError struct {
	Checkpoint string
	Step       int64 // the optimizer steps done
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("the workers stopped on request after %d optimizer steps; their state is saved in %s", e.Step, e.Checkpoint)
}

func (e *StoppedError) Unwrap() error { return ErrStopped }

// StopMode is what a stop asks of the workers (workerinfo.StopMode):
// StopSave (an interrupt: save the state and leave) or StopFinish (a Stop
// button: end the training pass, return the function's result).
type StopMode = workerinfo.StopMode

// The modes of Control.Stop (NoStop: none, in GroupStatus.Stopping).
const (
	NoStop     = workerinfo.NoStop
	StopSave   = workerinfo.StopSave
	StopFinish = workerinfo.StopFinish
)

// Interruption is what Control.Interrupt or Control.Stop did.
type Interruption int

const (
	// NotRunning: no workers run under the Control (yet, or any more).
	NotRunning Interruption = iota
	// Stopping: every worker was asked to stop at a step boundary they
	// agree on: to save its state and leave (Run then returns a
	// *StoppedError), or, to finish, to end its training pass and return.
	Stopping
	// Killing: the workers are being stopped at once (SIGINT, then SIGKILL
	// after the grace period); Run returns an error wrapping ErrInterrupted.
	Killing
)

// Control is how a launcher's caller stops a running launch, as a
// notebook's ■ button, its Stop button or a terminal's Ctrl-C does, and
// sends its workers messages: give one to Run in Config.Control (Run makes
// its own otherwise). The zero value is ready; a Control serves one Run at
// a time.
type Control struct {
	mu      sync.Mutex
	m       *monitor
	kill    context.CancelCauseFunc
	stderr  io.Writer
	asked   StopMode // the stop asked of the running workers
	killed  bool
	pending bool // a finish asked before the workers ran
}

// Interrupt interrupts the launch: Stop(StopSave). The first call asks
// every worker to finish its current step, save its state (the training's
// automatic checkpoint) and leave, when every worker can (it trains
// through a prepared loader); otherwise, and on a second call, it stops
// the workers at once. It says which it did.
func (c *Control) Interrupt() Interruption { return c.Stop(StopSave) }

// Stop asks the workers to stop in mode. StopSave is Interrupt. StopFinish
// asks every worker to end its training pass at a step boundary they agree
// on, evaluate and return what it has (the launch then ends as after a
// normal end); it never kills, and asked before the workers run it reaches
// them once they do. A StopSave after a StopFinish saves and leaves; the
// next one kills.
func (c *Control) Stop(mode StopMode) Interruption {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		if mode == StopFinish {
			c.pending = true
			return Stopping
		}
		return NotRunning
	}
	if c.killed {
		return Killing
	}
	if mode == StopFinish {
		if c.asked == workerinfo.NoStop {
			c.askFinish()
		}
		return Stopping
	}
	if c.asked < StopSave && c.m.stoppable() {
		c.asked = StopSave
		c.m.requestStop(StopSave)
		fmt.Fprintln(c.stderr, "goaccel: stopping: every worker finishes its current step, saves its state and leaves (interrupt again to stop them at once)")
		return Stopping
	}
	cause := errors.New("interrupted again while the workers were stopping")
	switch {
	case c.asked == workerinfo.NoStop:
		cause = errors.New("interrupted")
		if len(c.m.snapshot().Ranks) > 0 {
			fmt.Fprintln(c.stderr, "goaccel: the workers cannot stop at a step boundary (only a training loop over a prepared loader can), so they are stopped at once")
		}
	case c.asked == StopFinish:
		cause = errors.New("interrupted while the workers were finishing")
		fmt.Fprintln(c.stderr, "goaccel: interrupted: the workers cannot save at a step boundary (only a training loop over a prepared loader can), so they are stopped at once")
	default:
		fmt.Fprintln(c.stderr, "goaccel: interrupted again: stopping the workers at once")
	}
	c.asked, c.killed = StopSave, true
	c.kill(cause)
	return Killing
}

// askFinish asks the running workers to finish (c.mu held).
func (c *Control) askFinish() {
	c.asked = StopFinish
	c.m.requestStop(StopFinish)
	fmt.Fprintln(c.stderr, "goaccel: stop requested: every worker finishes its current training step, then the launch returns what it has (interrupt to save and stop instead)")
}

// Send queues payload, one control message (workerinfo.ControlMessage's
// Encode), for the worker of global rank: in order, never blocking the
// caller. It reports false when that worker does not run under the Control
// or reads too slowly (the message is dropped).
func (c *Control) Send(rank int, payload []byte) bool {
	c.mu.Lock()
	m := c.m
	c.mu.Unlock()
	return m != nil && m.send(rank, payload)
}

// Status is the launch's status table now (zero when it is not running).
func (c *Control) Status() GroupStatus {
	c.mu.Lock()
	m := c.m
	c.mu.Unlock()
	if m == nil {
		return GroupStatus{}
	}
	return m.snapshot()
}

func (c *Control) attach(m *monitor, kill context.CancelCauseFunc, stderr io.Writer) {
	c.mu.Lock()
	c.m, c.kill, c.stderr, c.asked, c.killed = m, kill, stderr, workerinfo.NoStop, false
	if c.pending {
		c.pending = false
		c.askFinish()
	}
	c.mu.Unlock()
	runningMu.Lock()
	running[c] = true
	runningMu.Unlock()
}

func (c *Control) detach() {
	runningMu.Lock()
	delete(running, c)
	runningMu.Unlock()
	c.mu.Lock()
	c.m, c.kill, c.pending = nil, nil, false
	c.mu.Unlock()
}

func (c *Control) stopAsked() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.asked != workerinfo.NoStop
}

// The launches running in this process, for StopAll: a process-wide "stop
// what runs" (notebook_launcher.Stop in a compiled program) has no other
// way to find them.
var (
	runningMu sync.Mutex
	running   = map[*Control]bool{}
)

// StopAll stops every launch running in this process, as Control.Stop
// does, and returns how many it asked.
func StopAll(mode StopMode) int {
	runningMu.Lock()
	cs := make([]*Control, 0, len(running))
	for c := range running {
		cs = append(cs, c)
	}
	runningMu.Unlock()
	n := 0
	for _, c := range cs {
		if c.Stop(mode) != NotRunning {
			n++
		}
	}
	return n
}

// InterruptOnSignals makes SIGINT and SIGTERM interrupt the launch ctl
// controls (the first asks the workers to save and stop, the next stops
// them at once), and cancel ctx when no launch runs yet. It returns the
// context to run the launch with and a function that stops listening.
func InterruptOnSignals(ctx context.Context, ctl *Control) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-sigs:
				if ctl.Interrupt() == NotRunning {
					cancel(fmt.Errorf("%w (%v)", ErrInterrupted, sig))
				}
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}
