package workerinfo

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// StopMode is what a launcher's stop request asks of a worker. Its
// Accelerator acts on it at a step boundary every rank agrees on.
type StopMode int32

const (
	// NoStop: no stop was asked.
	NoStop StopMode = iota
	// StopFinish (a notebook's Stop button): the training pass ends at the
	// boundary, evaluation runs in full and the launched function returns
	// what it has; with a project folder the state is saved first.
	StopFinish
	// StopSave (an interrupt: the ■ button, Ctrl-C, notebook_launcher.Stop):
	// every worker saves the next automatic checkpoint at the boundary and
	// leaves; a launch with --resume continues from there.
	StopSave
)

// The larger mode wins: a save asked after a finish (■ after the Stop
// button) saves and leaves.

var stopNames = [...]string{"none", "finish", "save"}

func (m StopMode) String() string {
	if m >= 0 && int(m) < len(stopNames) {
		return stopNames[m]
	}
	return fmt.Sprintf("StopMode(%d)", int32(m))
}

// MarshalText writes the mode by name ("finish", "save").
func (m StopMode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a mode by name.
func (m *StopMode) UnmarshalText(b []byte) error {
	for i, n := range stopNames {
		if string(b) == n {
			*m = StopMode(i)
			return nil
		}
	}
	return fmt.Errorf("workerinfo: unknown stop mode %q", b)
}

// ControlMessage is one message from a launcher on a worker's control pipe
// (EnvControlFD): one JSON object a line.
type ControlMessage struct {
	Type string `json:"type"` // ControlStop, ControlStacks or ControlComm
	// Mode is what a stop asks for.
	Mode StopMode `json:"mode,omitempty"`
	// Comm is a comm message (package internal/comm's Message) from the
	// front end to one of the worker's widgets.
	Comm json.RawMessage `json:"comm,omitempty"`
}

// The types of control messages.
const (
	ControlStop   = "stop"
	ControlStacks = "stacks"
	ControlComm   = "comm"
)

// Encode returns m as it travels, without the newline that ends it.
func (m ControlMessage) Encode() []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("workerinfo: encode a control message: %v", err)) // only a bad RawMessage fails
	}
	return b
}

// RequestStop records that the launcher asked this worker to stop in mode
// m (the control pipe's reader calls it; tests may); a lesser mode than
// one asked before changes nothing.
func (w *Worker) RequestStop(m StopMode) {
	for {
		old := w.stopMode.Load()
		if int32(m) <= old || w.stopMode.CompareAndSwap(old, int32(m)) {
			return
		}
	}
}

// RequestedStop is the stop the launcher asked this worker for (NoStop
// when none).
func (w *Worker) RequestedStop() StopMode { return StopMode(w.stopMode.Load()) }

// HandleComm installs f as the receiver of the comm messages the launcher
// relays to this worker's widgets (the worker harness, before its function
// runs); f runs on the control pipe's reader and must not block. Without
// one they are dropped.
func (w *Worker) HandleComm(f func(msg json.RawMessage)) { w.commHandler.Store(&f) }

// serveControl reads the launcher's messages until it closes the pipe. The
// launcher closes it only after the worker exited, so its end means the
// launcher is gone (killed outright): then orphaned runs (FromEnv's ends the
// process, as Linux's parent-death signal does, and as nothing else would
// on macOS). A pipe that breaks instead (an oversized line) does not.
func (w *Worker) serveControl(in *os.File, orphaned func()) {
	defer in.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 256<<20) // a widget's state may carry images
	for sc.Scan() {
		var m ControlMessage
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			fmt.Fprintf(os.Stderr, "goaccel worker: a bad message from the launcher: %v\n", err)
			continue
		}
		switch m.Type {
		case ControlStop:
			w.RequestStop(max(m.Mode, StopFinish))
		case ControlStacks:
			s := w.snapshot()
			s.Stacks = stacks()
			w.rep.send(s)
		case ControlComm:
			if f := w.commHandler.Load(); f != nil && len(m.Comm) > 0 {
				(*f)(m.Comm)
			}
		}
	}
	if sc.Err() == nil {
		orphaned()
	}
}

// leaveOrphaned ends a worker whose launcher is gone.
func leaveOrphaned() {
	fmt.Fprintln(os.Stderr, "goaccel worker: the launcher is gone (its control pipe closed); exiting")
	os.Exit(1)
}
