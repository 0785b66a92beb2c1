package workers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/goaccel/goaccel/internal/workerinfo"
)

// GroupSpec describes one group of local worker processes.
type GroupSpec struct {
	// Path is the executable; Args are its arguments (without argv[0]).
	Path string
	Args []string
	// NumProcs is the number of local workers to start.
	NumProcs int
	// Env returns the extra environment for local worker i (appended to os.Environ()).
	Env func(local int) []string
	// Rank returns the global rank of local worker i, used for prefixes and errors
	// (nil: the rank is the local index).
	Rank func(local int) int
	// Stdout and Stderr receive the workers' output (nil: os.Stdout, os.Stderr).
	Stdout, Stderr io.Writer
	// Grace is how long a worker gets after SIGTERM (a failure) or SIGINT
	// (cancellation) before SIGKILL (0: 3 s).
	Grace time.Duration
	// Started, when set, is called with the workers' process ids once all have started.
	Started func(pids []int)
	// Frame, when set, receives the frames (see WriteFrame) that a worker
	// writes to its stdout, instead of printing them.
	Frame func(rank int, payload []byte)
	// Pipes, when set, gives each worker a status pipe and a control pipe
	// (workerinfo.EnvStatusFD, EnvControlFD) and hands the launcher's ends
	// to Pipes once the worker started; RunGroup closes them when the
	// worker ends.
	Pipes func(local int, status io.ReadCloser, control io.Writer)
	// Exited, when set, is told how each worker ended ("exit status 0",
	// "signal: killed").
	Exited func(local int, status string)
}

// ExitError reports the first worker that failed.
type ExitError struct {
	Rank       int
	Status     string   // e.g. "exit status 3" or "signal: killed"
	Panic      string   // its "panic: …" or "fatal error: …" line, if it printed one
	StderrTail []string // its last stderr lines
}

// Error names the rank, its exit status, its panic and its last stderr lines.
func (e *ExitError) Error() string {
	msg := fmt.Sprintf("worker rank %d failed (%s)", e.Rank, e.Status)
	if e.Panic != "" {
		msg += ": " + e.Panic
	}
	if len(e.StderrTail) > 0 {
		msg += "; last stderr lines:\n  " + strings.Join(e.StderrTail, "\n  ")
	}
	return msg
}

// ErrInterrupted is returned (wrapped) when the context was cancelled and the group was stopped.
var ErrInterrupted = errors.New("workers interrupted")

type worker struct {
	local, rank int
	cmd         *exec.Cmd
	tail        *tailBuffer
	done        chan struct{}
	err         error
	outs        sync.WaitGroup
	ends        []*os.File // the launcher's ends of the status and control pipes
}

// RunGroup starts the workers and waits for all of them. The first worker to fail
// makes RunGroup stop the others and return an *ExitError naming it. Cancelling ctx
// sends SIGINT to every worker group, then SIGKILL after the grace period, and
// RunGroup returns an error wrapping ErrInterrupted. No worker outlives RunGroup.
func RunGroup(ctx context.Context, s GroupSpec) error {
	if s.NumProcs < 1 {
		return fmt.Errorf("workers: NumProcs is %d; it must be at least 1", s.NumProcs)
	}
	if err := canLaunch(); err != nil {
		return err
	}
	if s.Stdout == nil {
		s.Stdout = os.Stdout
	}
	if s.Stderr == nil {
		s.Stderr = os.Stderr
	}
	if s.Grace == 0 {
		s.Grace = 3 * time.Second
	}
	// Pdeathsig fires when the thread that started a worker ends, not the
	// process: keep this goroutine on its thread until every worker is done,
	// so no other goroutine can lock the thread and take it down with it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var mu sync.Mutex // serialises writes of whole lines from all workers
	workers := make([]*worker, 0, s.NumProcs)
	for i := 0; i < s.NumProcs; i++ {
		w, err := start(s, i, &mu)
		if err != nil {
			killAll(workers, s.Grace)
			return err
		}
		workers = append(workers, w)
	}
	if s.Started != nil {
		pids := make([]int, len(workers))
		for i, w := range workers {
			pids[i] = w.cmd.Process.Pid
		}
		s.Started(pids)
	}
	exited := make(chan *worker, len(workers))
	for _, w := range workers {
		go func(w *worker) {
			w.outs.Wait() // drain output first so the error carries the last lines
			w.err = w.cmd.Wait()
			if len(w.ends) > 1 {
				w.ends[1].Close() // the status pipe's reader closes its end once it read everything
			}
			if s.Exited != nil {
				how := "exit status 0"
				if w.err != nil {
					how = status(w.err)
				}
				s.Exited(w.local, how)
			}
			close(w.done)
			exited <- w
		}(w)
	}
	var fails []*ExitError
	var cause error
	interrupted := false
	for remaining := len(workers); remaining > 0; {
		select {
		case w := <-exited:
			remaining--
			if w.err != nil && !interrupted {
				fails = append(fails, &ExitError{Rank: w.rank, Status: status(w.err), Panic: w.tail.panicLine(), StderrTail: w.tail.lines()})
				if len(fails) == 1 {
					go killAll(workers, s.Grace)
				}
			}
		case <-ctx.Done():
			if !interrupted && len(fails) == 0 {
				interrupted = true
				cause = context.Cause(ctx)
				go interruptAll(workers, s.Grace)
			}
			ctx = context.Background() // stop selecting on it
		}
	}
	if interrupted {
		return fmt.Errorf("workers: %w (%v)", ErrInterrupted, cause)
	}
	return rootCause(fails)
}

// rootCause picks, among the failures in the order the workers ended, the first that is not a
// rank reporting that a peer was lost (dist's "rank 1 lost (host …)"), else the first: when a worker
// is killed, the others may see it gone and end before the launcher has seen it die, and the
// killed worker is the one to report.
func rootCause(fails []*ExitError) error {
	if len(fails) == 0 {
		return nil
	}
	for _, f := range fails {
		if !peerLost.MatchString(f.Panic + "\n" + strings.Join(f.StderrTail, "\n")) {
			return f
		}
	}
	return fails[0]
}

// peerLost matches dist's report of a lost peer: "rank 1 lost (host …): …" or "rank 1 lost: …".
var peerLost = regexp.MustCompile(`\brank \d+ lost[ :]`)

func start(s GroupSpec, i int, mu *sync.Mutex) (*worker, error) {
	rank := i
	if s.Rank != nil {
		rank = s.Rank(i)
	}
	cmd := exec.Command(s.Path, s.Args...)
	cmd.Env = os.Environ()
	if s.Env != nil {
		cmd.Env = append(cmd.Env, s.Env(i)...)
	}
	cmd.SysProcAttr = sysProcAttr()
	w := &worker{local: i, rank: rank, cmd: cmd, tail: newTail(12), done: make(chan struct{})}
	var theirs []*os.File
	if s.Pipes != nil {
		var err error
		if theirs, w.ends, err = pipes(); err != nil {
			return nil, fmt.Errorf("workers: status pipes for rank %d: %w", rank, err)
		}
		cmd.ExtraFiles = theirs // fds 3 and 4
		cmd.Env = append(cmd.Env, workerinfo.EnvStatusFD+"=3", workerinfo.EnvControlFD+"=4")
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("workers: stdout pipe for rank %d: %w", rank, err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("workers: stderr pipe for rank %d: %w", rank, err)
	}
	err = cmd.Start()
	for _, f := range theirs {
		f.Close() // the worker holds them now
	}
	if err != nil {
		for _, f := range w.ends {
			f.Close()
		}
		return nil, fmt.Errorf("workers: start rank %d (%s): %w", rank, s.Path, err)
	}
	if s.Pipes != nil {
		s.Pipes(i, w.ends[0], w.ends[1])
	}
	prefix := ""
	if rank > 0 {
		prefix = fmt.Sprintf("[rank %d] ", rank)
	}
	w.outs.Add(2)
	var frame func([]byte)
	if s.Frame != nil {
		frame = func(p []byte) { s.Frame(rank, p) }
	}
	go relay(stdout, s.Stdout, prefix, mu, nil, frame, &w.outs)
	go relay(stderr, s.Stderr, prefix, mu, w.tail, nil, &w.outs)
	return w, nil
}

// pipes makes a worker's status pipe (it writes, the launcher reads) and
// control pipe (the other way): the worker's ends and the launcher's.
func pipes() (theirs, ours []*os.File, err error) {
	sr, sw, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cr, cw, err := os.Pipe()
	if err != nil {
		sr.Close()
		sw.Close()
		return nil, nil, err
	}
	return []*os.File{sw, cr}, []*os.File{sr, cw}, nil
}

func status(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ProcessState.String()
	}
	return err.Error()
}

// stopAll sends first to every group, waits up to grace, then SIGKILLs what is left.
func stopAll(workers []*worker, first syscall.Signal, grace time.Duration) {
	for _, w := range workers {
		signalGroup(w, first)
	}
	deadline := time.After(grace)
	for _, w := range workers {
		select {
		case <-w.done:
		case <-deadline:
			for _, v := range workers {
				signalGroup(v, syscall.SIGKILL)
			}
			return
		}
	}
	// Reap stragglers that the leaders may have left in their groups.
	for _, w := range workers {
		signalGroup(w, syscall.SIGKILL)
	}
}

func killAll(workers []*worker, grace time.Duration)      { stopAll(workers, syscall.SIGTERM, grace) }
func interruptAll(workers []*worker, grace time.Duration) { stopAll(workers, syscall.SIGINT, grace) }
