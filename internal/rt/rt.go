package rt

import "reflect"

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

// Symbols is the helpers' symbol table for yaegi (interp.Exports' shape).
func Symbols() map[string]map[string]reflect.Value {
	return map[string]map[string]reflect.Value{
		ImportPath + "/__goaccel": {
			"Clear":     reflect.ValueOf(Clear),
			"Named":     reflect.ValueOf(Named),
			"NamedFunc": reflect.ValueOf((*NamedFunc)(nil)),
		},
	}
}
