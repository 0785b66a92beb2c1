package repl

import (
	"io"
	"os"
	"reflect"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib/unrestricted"
)

// runtimePath is the import path of the compiled helpers that rewritten cells
// call (cells rewrites clear(x) to __goaccel.Clear(x)), %timeit's timer and
// %%capture's binding.
const runtimePath = "goaccel.internal/rt"

// overrides are the symbols the session changes from yaegi's defaults:
// os.Stdin is the session's switchable reader (os.Stdout and os.Stderr the
// session's writers when they are not files), the environment is the real
// process environment (so %env and os.Setenv agree, and !commands see it),
// and os/exec is available. os.Exit stays yaegi's: it panics instead of
// ending the executor.
func (s *Session) overrides() interp.Exports {
	osSyms := map[string]reflect.Value{
		"Getenv":    reflect.ValueOf(os.Getenv),
		"LookupEnv": reflect.ValueOf(os.LookupEnv),
		"Setenv":    reflect.ValueOf(os.Setenv),
		"Unsetenv":  reflect.ValueOf(os.Unsetenv),
		"Environ":   reflect.ValueOf(os.Environ),
		"ExpandEnv": reflect.ValueOf(os.ExpandEnv),
		"Clearenv":  reflect.ValueOf(os.Clearenv),
	}
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
	return interp.Exports{
		"os/os":        osSyms,
		"os/exec/exec": unrestricted.Symbols["os/exec/exec"],
		runtimePath + "/__goaccel": {
			"Clear":      reflect.ValueOf(clearValue),
			"TimerStart": reflect.ValueOf(s.timer.Start),
			"TimerStop":  reflect.ValueOf(s.timer.Stop),
			"Captured":   reflect.ValueOf(s.lastCaptured),
		},
	}
}

// clearValue is the clear builtin for the interpreter: it deletes a map's
// entries or zeroes a slice's elements.
func clearValue(v any) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice:
		rv.Clear()
	}
}
