package rt

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
)

// ImportPath is the import path interpreted code imports the helpers from
// (under the name __goaccel).
const ImportPath = "goaccel.internal/rt"

// NamedFunc is a function with the name it was declared under: yaegi gives
// compiled code no way to tell one interpreted function from another, and a
// launcher must name the function for its workers to rebuild it.
type NamedFunc struct {
	Name string
	Fn   any
}

// Named pairs fn with its declared name.
func Named(name string, fn any) NamedFunc { return NamedFunc{Name: name, Fn: fn} }

// Clear is the clear builtin: it deletes a map's entries or zeroes a slice's
// elements.
func Clear(v any) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice:
		rv.Clear()
	}
}

// Embed is what a //go:embed line gives a string or []byte variable: the
// contents of the one file pattern names, relative to the working
// directory (a notebook's directory plays its package's). It panics, with
// the compiler's words, when pattern does not name exactly one file.
func Embed(pattern string) []byte {
	matches, err := filepath.Glob(pattern)
	if err != nil || len(matches) == 0 {
		panic(fmt.Sprintf("//go:embed %s: pattern %s: no matching files found", pattern, pattern))
	}
	if len(matches) > 1 {
		panic(fmt.Sprintf("//go:embed %s: invalid use of //go:embed: multiple files for type string or []byte", pattern))
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		panic(fmt.Sprintf("//go:embed %s: %v", pattern, err))
	}
	return b
}

// Symbols is the helpers' symbol table for yaegi (interp.Exports' shape).
func Symbols() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{
		ImportPath + "/__goaccel": {
			"Clear":     reflect.ValueOf(Clear),
			"Embed":     reflect.ValueOf(Embed),
			"Named":     reflect.ValueOf(Named),
			"NamedFunc": reflect.ValueOf((*NamedFunc)(nil)),
		},
	}
}
