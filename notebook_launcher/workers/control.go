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

// Interruption is what Control.Interrupt did.
type Interruption int

const (
	// NotRunning: no workers run under the Control (yet, or any more).
	NotRunning Interruption = iota
	// Stopping: every worker was asked to finish its current step, save its
	// state and leave; Run then returns a *StoppedError.
	Stopping
	// Killing: the workers are being stopped at once (SIGINT, then SIGKILL
	// after the grace period); Run returns an error wrapping ErrInterrupted.
	Killing
)

// Control is how a launcher's caller interrupts a running launch, as a
// notebook's ■ button or a terminal's Ctrl-C does: give one to Run in
// Config.Control (Run makes its own otherwise). The zero value is ready;
// a Control serves one Run at a time.
type Control struct {
	mu     sync.Mutex
	m      *monitor
	kill   context.CancelCauseFunc
	stderr io.Writer
	asked  bool
}

// Interrupt interrupts the launch. The first call asks every worker to
// finish its current step, save its state (the training's automatic
// checkpoint) and leave, when every worker can (it trains through a
// prepared loader); otherwise, and on a second call, it stops the workers
// at once. It says which it did.
func (c *Control) Interrupt() Interruption {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		return NotRunning
	}
	if !c.asked && c.m.stoppable() {
		c.asked = true
		c.m.requestStop()
		fmt.Fprintln(c.stderr, "goaccel: stopping: every worker finishes its current step, saves its state and leaves (interrupt again to stop them at once)")
		return Stopping
	}
	cause := errors.New("interrupted again while the workers were saving")
	if !c.asked {
		cause = errors.New("interrupted")
		if len(c.m.snapshot().Ranks) > 0 {
			fmt.Fprintln(c.stderr, "goaccel: the workers cannot stop at a step boundary (only a training loop over a prepared loader can), so they are stopped at once")
		}
	} else {
		fmt.Fprintln(c.stderr, "goaccel: interrupted again: stopping the workers at once")
	}
	c.asked = true
	c.kill(cause)
	return Killing
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
	c.m, c.kill, c.stderr, c.asked = m, kill, stderr, false
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
	c.m, c.kill = nil, nil
	c.mu.Unlock()
}

func (c *Control) stopAsked() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.asked
}

// The launches running in this process, for InterruptAll: a process-wide
// "stop what runs" (a notebook's Stop button, notebook_launcher.Stop) has
// no other way to find them.
var (
	runningMu sync.Mutex
	running   = map[*Control]bool{}
)

// InterruptAll interrupts every launch running in this process, as
// Control.Interrupt does, and returns what it did to each.
func InterruptAll() []Interruption {
	runningMu.Lock()
	cs := make([]*Control, 0, len(running))
	for c := range running {
		cs = append(cs, c)
	}
	runningMu.Unlock()
	out := make([]Interruption, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Interrupt())
	}
	return out
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
