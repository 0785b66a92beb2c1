package repl

import (
	"reflect"
	"strings"
)

// envView is the session as cells.Parse sees it.
type envView struct{ s *Session }

func (e envView) Defined(name string) bool {
	s := e.s
	s.mu.Lock()
	_, named := s.kinds[name]
	_, imported := s.imported[name]
	s.mu.Unlock()
	if named || imported {
		return true
	}
	_, ok := s.globals()[name]
	return ok
}

func (e envView) PackagePath(name string) string { return e.s.pkgs.path(name) }

func (e envView) TypeOf(name string) string {
	s := e.s
	if strings.Contains(name, ".") {
		return s.selectorType(name)
	}
	s.mu.Lock()
	t := s.names[name]
	s.mu.Unlock()
	if t != "" {
		return t
	}
	if v, ok := s.valueOf(name); ok && v.IsValid() {
		if k := v.Kind(); k <= reflect.Complex128 || k == reflect.String {
			return v.Type().String()
		}
		// A function value (an iterator from a compiled package, say): its
		// type is usable as source when no interpreted struct hides in it.
		if t := v.Type().String(); v.Kind() == reflect.Func && !strings.Contains(t, "struct") {
			return t
		}
	}
	return ""
}

func (e envView) TypeName(name string) (string, bool) {
	s := e.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kinds[name] != "type" {
		return "", false
	}
	if internal, ok := s.renamed[name]; ok {
		return internal, true
	}
	return name, true
}

// selectorType returns the type of pkg.Name, or of v.Field / v.Method for a
// session variable v, as Go source; "" when unknown or when the type is an
// interpreted one that has no source form.
func (s *Session) selectorType(chain string) string {
	parts := strings.Split(chain, ".")
	var t reflect.Type
	if p := s.packagePathOf(parts[0]); p != "" && len(parts) == 2 {
		v, ok := s.pkgs.syms[p][parts[1]]
		if !ok || !v.IsValid() {
			return ""
		}
		t = v.Type()
	} else {
		v, ok := s.valueOf(parts[0])
		if !ok {
			return ""
		}
		for i, f := range parts[1:] {
			if m := methodValue(v, f); m.IsValid() && i == len(parts)-2 {
				t = m.Type()
				break
			}
			if v = fieldByName(v, f); !v.IsValid() {
				return ""
			}
			t = v.Type()
		}
	}
	if t == nil || strings.Contains(t.String(), "struct") {
		return ""
	}
	return t.String()
}

// methodValue returns v's method name (of v or *v), if any.
func methodValue(v reflect.Value, name string) reflect.Value {
	if !v.IsValid() {
		return reflect.Value{}
	}
	if m := v.MethodByName(name); m.IsValid() {
		return m
	}
	if v.CanAddr() {
		return v.Addr().MethodByName(name)
	}
	return reflect.Value{}
}

// ImportPath is the import path of a package name the session imported
// (cells.ImportEnv), so rewrites see through aliases.
func (e envView) ImportPath(name string) string {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return e.s.imported[name]
}
