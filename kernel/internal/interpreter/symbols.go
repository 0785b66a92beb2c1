package interpreter

import (
	"flag"
	"os"
	"path"
	"reflect"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib/unsafe"

	"github.com/goaccel/goaccel/internal/rt"
	"github.com/goaccel/goaccel/kernel/internal/interpreter/std"
	"github.com/goaccel/goaccel/kernel/internal/interpreter/stdgeneric"
	"github.com/goaccel/goaccel/kernel/internal/interpreter/symbols"
)

// Tables are the symbol tables every goaccel interpreter loads, in order.
func Tables() []interp.Exports {
	return []interp.Exports{std.Symbols, unsafe.Symbols, symbols.Symbols, base()}
}

// base replaces yaegi's defaults: the environment is the real process
// environment (so %env, os.Setenv and !commands agree, and a worker sees
// RANK and WORLD_SIZE), flag.Parse parses no process arguments, and the
// helpers rewritten cells call are importable as __goaccel. (os.Exit is
// package std's: it ends the evaluation instead of the process.)
func base() interp.Exports {
	ex := interp.Exports{
		// flag.Parse parses the interpreted program's arguments (none),
		// not those of the process the interpreter runs in.
		"flag/flag": {
			"Parse": reflect.ValueOf(func() { _ = flag.CommandLine.Parse(nil) }),
		},
		// Go 1.20's unsafe.StringData and String, which yaegi's unsafe
		// lacks (SliceData and Slice are generic: package stdgeneric).
		"unsafe/unsafe": {
			"StringData": reflect.ValueOf(stdgeneric.UnsafeStringData),
			"String":     reflect.ValueOf(stdgeneric.UnsafeString),
		},
		"os/os": {
			"Getenv":    reflect.ValueOf(os.Getenv),
			"LookupEnv": reflect.ValueOf(os.LookupEnv),
			"Setenv":    reflect.ValueOf(os.Setenv),
			"Unsetenv":  reflect.ValueOf(os.Unsetenv),
			"Environ":   reflect.ValueOf(os.Environ),
			"ExpandEnv": reflect.ValueOf(os.ExpandEnv),
			"Clearenv":  reflect.ValueOf(os.Clearenv),
		},
	}
	for k, v := range rt.Symbols() {
		ex[k] = v
	}
	return ex
}

// New returns an interpreter with Tables loaded, then extra.
func New(opts interp.Options, extra ...interp.Exports) (*interp.Interpreter, error) {
	return newWith(nil, opts, extra...)
}

// newWith is New, loading only the packages in only when it is not nil
// (plus the ones every interpreter needs): loading every table takes tens
// of milliseconds, a worker program imports a handful.
func newWith(only map[string]bool, opts interp.Options, extra ...interp.Exports) (*interp.Interpreter, error) {
	i := interp.New(opts)
	for _, syms := range append(Tables(), extra...) {
		if only != nil {
			picked := interp.Exports{}
			for key, v := range syms {
				// fmt's table makes yaegi set up its standard library (os.Args,
				// os.Stdout, …) and compile its generic packages (cmp, maps, slices).
				if dir := path.Dir(key); only[dir] || dir == rt.ImportPath || dir == "os" || dir == "fmt" {
					picked[key] = v
				}
			}
			syms = picked
		}
		if err := i.Use(syms); err != nil {
			return nil, err
		}
	}
	return i, nil
}
