package workerinfo

import (
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
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

// reporter is the process's side of the pipes, started once.
type reporter struct {
	mu   sync.Mutex // one line per Write; guards sent
	out  *os.File
	rank int
	last Status // the last status loop sent (loop's own)
	sent time.Time
}

var (
	startOnce sync.Once
	rep       atomic.Pointer[reporter]
	controlOK atomic.Bool
)

// StartReporting starts sending this process's Status to its launcher when
// the launcher gave it a status pipe (EnvStatusFD), and reading the
// launcher's requests (EnvControlFD). Elsewhere it does nothing. Packages
// that learn what a worker does (accelerate, dist, the worker harness)
// call it; it acts once.
func StartReporting() {
	startOnce.Do(func() {
		out := fdFile(EnvStatusFD, "goaccel-status")
		if out == nil {
			return
		}
		r := &reporter{out: out}
		r.rank, _ = strconv.Atoi(os.Getenv("RANK"))
		rep.Store(r)
		if in := fdFile(EnvControlFD, "goaccel-control"); in != nil {
			controlOK.Store(true)
			go r.serveControl(in)
		}
		go r.loop()
	})
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
func Controlled() bool { return controlOK.Load() }

// Stopped tells the launcher that the worker saved its state in dir on a
// stop request and is leaving.
func Stopped(dir string, step int64) {
	ckpt.Store(&checkpoint{dir, step, false})
	SetPhase(PhaseStopping)
	if r := rep.Load(); r != nil {
		s := snapshot(r.rank)
		s.Stopped = true
		r.send(s)
	}
}

func (r *reporter) loop() {
	const heartbeat = 8 // send at least every 8 ticks, changed or not
	t := time.NewTicker(ReportEvery)
	defer t.Stop()
	for range t.C {
		s := snapshot(r.rank)
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
func Flush() { notify() }

// notify sends the status now, when a launcher listens: for changes it
// must not learn a tick late.
func notify() {
	if r := rep.Load(); r != nil {
		r.send(snapshot(r.rank))
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
