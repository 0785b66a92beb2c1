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
