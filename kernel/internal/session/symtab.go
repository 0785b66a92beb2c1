package session

import (
	"go/types"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/cells"
	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
	"github.com/goaccel/goaccel/kernel/internal/program"
)

// The session's symbol table is its declaration record (s.declared: one
// entry per name, with the user's text and where it came from) and the
// go/types scope that knows each name's type (s.types). These are their
// readers, and the recording of what a unit that ran declared.

// typeSession is what the types scope rebuilds itself from: the record.
func (s *Session) typeSession() celltypes.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := celltypes.Session{Imports: s.declared.Imports()}
	out.Decls = s.declared.Decls()
	out.Vars = s.declared.StatementVars()
	return out
}

// symbol returns the record's entry for name.
func (s *Session) symbol(name string) (program.Symbol, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.declared.Symbol(name)
}

// kindOf says what a session name is: "var", "const", "func", "generic
// func", "type", "import", or "" when the session has no such name.
func (s *Session) kindOf(name string) string {
	sym, ok := s.symbol(name)
	if !ok {
		return ""
	}
	if sym.Kind == "func" {
		if f, ok := s.types.Lookup(name).(*types.Func); ok && f.Type().(*types.Signature).TypeParams().Len() > 0 {
			return "generic func"
		}
	}
	return sym.Kind
}

// typeOf returns the go/types type of a session name, nil when unknown.
func (s *Session) typeOf(name string) types.Type {
	obj := s.types.Lookup(name)
	if obj == nil {
		return nil
	}
	if b, ok := obj.Type().(*types.Basic); ok && b.Kind() == types.Invalid {
		return nil
	}
	return obj.Type()
}

// typeText is a session name's type as users read it (package names, not
// paths), "" when unknown.
func (s *Session) typeText(name string) string {
	t := s.typeOf(name)
	if t == nil {
		return ""
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		return p.Name()
	})
}

// declLine is the first line of a func's or type's declaration, "" for
// other names.
func (s *Session) declLine(name string) string {
	sym, ok := s.symbol(name)
	if !ok || sym.Decl == nil || sym.Kind != "func" && sym.Kind != "type" {
		return ""
	}
	first := strings.TrimSpace(strings.SplitN(sym.Decl.Text, "\n", 2)[0])
	if i := strings.Index(first, "{"); i >= 0 && sym.Kind == "func" {
		first = strings.TrimSpace(first[:i])
	}
	return first
}

// record remembers what a unit that ran declared: the interpreter's names
// of the types it redefined (the declarations go into the record with
// recordDecls).
func (s *Session) record(u cells.Unit) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range u.Names {
		if internal, ok := s.pendingRenames[n]; ok && u.Kinds[n] == "type" {
			s.declared.SetInternal(n, internal)
		}
	}
}
