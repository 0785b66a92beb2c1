package workerinfo

import (
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"time"
)

// Environment variables through which a launcher (notebook_launcher/workers)
// gives a worker its status and control pipes, and asks it to resume.
const (
	// EnvStatusFD is the file descriptor the worker writes Status lines to.
	EnvStatusFD = "GOACCEL_STATUS_FD"
	// EnvControlFD is the file descriptor the launcher writes its messages
	// to, one ControlMessage a line: stop requests, stacks requests, and
	// the front end's comm messages to the worker's widgets.
	EnvControlFD = "GOACCEL_CONTROL_FD"
	// EnvResume asks the worker's Accelerator to load the latest automatic
	// checkpoint when it prepares: ResumeLatest (a launch with --resume:
	// one must exist) or ResumeRestart (a restarted group: the latest one
	// if any).
	EnvResume     = "GOACCEL_RESUME"
	ResumeLatest  = "latest"
	ResumeRestart = "restart"
)

// ReportEvery is how often a worker sends its status when it changed (and
// at least every few of these when it did not).
const ReportEvery = 250 * time.Millisecond

// reporter is a Worker's side of the status pipe.
type reporter struct {
	mu   sync.Mutex // one line per Write; guards sent
	out  *os.File
	last Status // the last status loop sent (loop's own)
	sent time.Time
}

func fdFile(env, name string) *os.File {
	fd, err := strconv.Atoi(os.Getenv(env))
	if err != nil || fd < 3 {
		return nil
	}
	return os.NewFile(uintptr(fd), name)
}

// Controlled reports whether a launcher can ask this worker to stop (it
// gave the worker a control pipe). Every worker of a launch by goaccel
// (notebook_launcher, goaccel launch, %accelerate launch) has one.
func (w *Worker) Controlled() bool { return w.controlled }

// Stopped tells the launcher that the worker saved its state in dir on a
// stop request and is leaving.
func (w *Worker) Stopped(dir string, step int64) {
	w.ckpt.Store(&checkpoint{dir, step, false})
	w.SetPhase(PhaseStopping)
	if w.rep != nil {
		s := w.snapshot()
		s.Stopped = true
		w.rep.send(s)
	}
}

// loop sends the worker's status when it changed, and every few ticks
// anyway, until the launcher closes the pipe.
func (w *Worker) loop() {
	const heartbeat = 8 // send at least every 8 ticks, changed or not
	t := time.NewTicker(ReportEvery)
	defer t.Stop()
	r := w.rep
	for range t.C {
		s := w.snapshot()
		r.mu.Lock()
		due := time.Since(r.sent) >= heartbeat*ReportEvery
		r.mu.Unlock()
		if s != r.last || due {
			r.last = s
			if !r.send(s) {
				return // the launcher is gone
			}
		}
	}
}

// Flush sends the status now, when a launcher listens: the last one, as
// the worker ends (the harness, EndTraining), so that the launcher's table
// shows where it ended rather than a tick before.
func (w *Worker) Flush() { w.notify() }

// notify sends the status now, when a launcher listens: for changes it
// must not learn a tick late.
func (w *Worker) notify() {
	if w.rep != nil {
		w.rep.send(w.snapshot())
	}
}

// send writes s as one line; false when the pipe is closed.
func (r *reporter) send(s Status) bool {
	b, err := json.Marshal(s)
	if err != nil {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = time.Now()
	_, err = r.out.Write(append(b, '\n'))
	return err == nil
}

// stacks returns every goroutine's stack, growing the buffer until it fits.
func stacks() string {
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 16<<20 {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// rss is the process's resident memory: /proc/self/statm on Linux, else
// the memory the Go runtime mapped.
func rss() uint64 {
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := bytes.Fields(b); len(f) > 1 {
			if pages, err := strconv.ParseUint(string(f[1]), 10, 64); err == nil {
				return pages * uint64(os.Getpagesize())
			}
		}
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return s[0].Value.Uint64()
	}
	return 0
}
