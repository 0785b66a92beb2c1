package magics

import (
	"context"
	"time"
)

// The interfaces below are what some magics need from a session beyond Env.
// A session implements those it supports; a magic whose session lacks one
// says so instead of running.

// Timer runs Go code repeatedly, for %timeit.
type Timer interface {
	// TimeGo runs code.Setup once, then code.Stmt n times in a loop, and
	// returns the loop's wall time. failure is the session's result of a run
	// that failed (compile error, panic, interrupt), to report as the cell's.
	TimeGo(ctx context.Context, code TimedCode, n int) (elapsed time.Duration, failure any)
}

// TimedCode is the code %timeit times.
type TimedCode struct {
	Setup, Stmt string
	Line        int    // the cell line Stmt starts on
	Shown       string // the cell as the user wrote it, for error messages
}

// Resetter forgets a session's state, for %reset.
type Resetter interface {
	// Reset forgets every variable, function, type and import of the session.
	Reset() error
}

// Asker reads an answer from the user, for confirmations.
type Asker interface {
	// Ask shows prompt and returns the line the user typed; an error when
	// the client cannot answer (no stdin).
	Ask(prompt string) (string, error)
}

// Capturer runs Go code with its output captured, for %%capture.
type Capturer interface {
	// Capture runs code as a cell with the streams and rich outputs that
	// what selects going into the returned CapturedIO instead of the
	// notebook. The cell's result value is captured too. result and failed
	// are RunGo's; a failed cell's error is not captured.
	Capture(ctx context.Context, code string, what CaptureOptions) (captured *CapturedIO, result any, failed bool)
	// SetCaptured binds name, a session variable, to captured.
	SetCaptured(name string, captured *CapturedIO) error
}

// CaptureOptions say what %%capture captures.
type CaptureOptions struct {
	Stdout, Stderr, Display bool
}
