package repl

import (
	"io"
	"os"
	"reflect"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib/unrestricted"
)

// runtimePath is the import path of the compiled helpers that rewritten cells
// call (cells rewrites clear(x) to __goaccel.Clear(x)).
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
	if _, isFile := s.opts.Stdout.(*os.File); !isFile {
		w := s.opts.Stdout
		osSyms["Stdout"] = reflect.ValueOf(&w).Elem()
	}
	if _, isFile := s.opts.Stderr.(*os.File); !isFile {
		w := s.opts.Stderr
		osSyms["Stderr"] = reflect.ValueOf(&w).Elem()
	}
	return interp.Exports{
		"os/os":                    osSyms,
		"os/exec/exec":             unrestricted.Symbols["os/exec/exec"],
		runtimePath + "/__goaccel": {"Clear": reflect.ValueOf(clearValue)},
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
