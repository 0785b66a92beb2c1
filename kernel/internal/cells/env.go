package cells

import "github.com/goaccel/goaccel/kernel/internal/cells/celltypes"

// Env is what the session knows from earlier cells. Parse uses it to tell
// session names from packages to import, and to check the cell's types
// against the session's. A nil Env is an empty session.
type Env interface {
	// Defined reports whether name is a variable, constant, function, type or
	// package name that an earlier cell declared or imported.
	Defined(name string) bool
	// PackagePath returns the import path of a package that cells may import
	// under name (e.g. "strings" → "strings"), or "" when there is none.
	PackagePath(name string) string
	// PackageName returns the name of the package at import path p, "" when
	// unknown.
	PackageName(p string) string
	// ImportPath returns the import path of the package the session imported
	// as name, "" when none.
	ImportPath(name string) string
	// Imports lists the session's imports as (name, path) pairs.
	Imports() [][2]string
	// TypeName reports whether an earlier cell declared type name, and the
	// name the interpreter knows it by (different after a redefinition).
	TypeName(name string) (internal string, ok bool)
	// Types is the session as go/types sees it (nil: no session; the cell
	// is checked on its own).
	Types() *celltypes.Scope
}

type emptyEnv struct{}

func (emptyEnv) Defined(string) bool            { return false }
func (emptyEnv) PackagePath(string) string      { return "" }
func (emptyEnv) PackageName(string) string      { return "" }
func (emptyEnv) ImportPath(string) string       { return "" }
func (emptyEnv) Imports() [][2]string           { return nil }
func (emptyEnv) TypeName(string) (string, bool) { return "", false }
func (emptyEnv) Types() *celltypes.Scope        { return nil }
