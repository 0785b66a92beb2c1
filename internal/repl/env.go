package repl

import (
	"reflect"
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
	}
	return ""
}
