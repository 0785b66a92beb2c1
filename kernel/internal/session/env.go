package session

import (
	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
)

// envView is the session as cells.Parse sees it (cells.Env).
type envView struct{ s *Session }

func (e envView) Defined(name string) bool {
	if _, ok := e.s.symbol(name); ok {
		return true
	}
	_, ok := e.s.globals()[name]
	return ok
}

func (e envView) PackagePath(name string) string { return e.s.pkgs.path(name) }

func (e envView) PackageName(p string) string { return e.s.pkgs.nameOf[p] }

func (e envView) ImportPath(name string) string {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return e.s.declared.ImportPath(name)
}

// Imports are the session's imports and the runtime helpers every cell
// file imports as __goaccel.
func (e envView) Imports() [][2]string {
	e.s.mu.Lock()
	defer e.s.mu.Unlock()
	return append(e.s.declared.Imports(), [2]string{"__goaccel", runtimePath})
}

func (e envView) TypeName(name string) (string, bool) {
	sym, ok := e.s.symbol(name)
	if !ok || sym.Kind != "type" {
		return "", false
	}
	if sym.Internal != "" {
		return sym.Internal, true
	}
	return name, true
}

func (e envView) Types() *celltypes.Scope { return e.s.types }
