package session

import (
	"io"
	"reflect"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/internal/rt"
)

// runtimePath is the import path of the compiled helpers that rewritten cells
// call (cells rewrites clear(x) to __goaccel.Clear(x)), %timeit's timer,
// %%capture's binding and %accelerate's argument capture.
const runtimePath = rt.ImportPath

// overrides are the symbols the session changes beyond kernel/internal/interpreter's
// tables (the real process environment, os/exec, the rewrite helpers):
// os.Stdin is the session's switchable reader, os.Stdout and os.Stderr the
// session's writers, %timeit's timer and %%capture's binding, and
// __goaccel.Capture, which hands values of the session to compiled code (the
// arguments of %accelerate launch). os.Exit stays yaegi's: it panics instead
// of ending the executor.
func (s *Session) overrides() interp.Exports {
	osSyms := map[string]reflect.Value{}
	stdin := io.Reader(s.in)
	osSyms["Stdin"] = reflect.ValueOf(&stdin).Elem()
	// os.Stdout and os.Stderr stay files when the session's are (programs
	// test for *os.File), as variables %%capture can point at a pipe.
	if s.stdoutFile != nil {
		osSyms["Stdout"] = reflect.ValueOf(&s.stdoutFile).Elem()
	} else {
		w := io.Writer(s.out)
		osSyms["Stdout"] = reflect.ValueOf(&w).Elem()
	}
	if s.stderrFile != nil {
		osSyms["Stderr"] = reflect.ValueOf(&s.stderrFile).Elem()
	} else {
		w := io.Writer(s.errOut)
		osSyms["Stderr"] = reflect.ValueOf(&w).Elem()
	}
	capture := func(vals ...any) {
		s.mu.Lock()
		f := s.capturing
		s.mu.Unlock()
		if f != nil {
			f(vals...)
		}
	}
	return interp.Exports{
		"os/os": osSyms,
		runtimePath + "/__goaccel": {
			"TimerStart": reflect.ValueOf(s.timer.Start),
			"TimerStop":  reflect.ValueOf(s.timer.Stop),
			"Captured":   reflect.ValueOf(s.lastCaptured),
			"Capture":    reflect.ValueOf(capture),
			// RunCallback runs the widget callback of RunDeferred (callbacks.go).
			"RunCallback": reflect.ValueOf(s.runRegisteredCallback),
		},
	}
}
