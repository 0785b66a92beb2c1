package cells

import (
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"github.com/goaccel/goaccel/kernel/internal/cells/celltypes"
)

// importer is shared by the tests: the standard library's symbol tables.
var importer = celltypes.NewImporter(stdlib.Symbols)

// testEnv is a session made of earlier cells, as package session keeps one: their
// names, imports and types (a celltypes.Scope they were checked into).
type testEnv struct {
	scope     *celltypes.Scope
	names     map[string]bool
	imports   [][2]string
	typeNames map[string]string
	decls     []celltypes.Decl
	vars      []string
}

// newEnv runs cells (parses them as the session would) into a fresh session.
func newEnv(t *testing.T, cells ...string) *testEnv {
	t.Helper()
	e := &testEnv{names: map[string]bool{}, typeNames: map[string]string{}}
	e.scope = celltypes.NewScope(importer, func() celltypes.Session {
		return celltypes.Session{Imports: e.imports, Decls: e.decls, Vars: e.vars}
	})
	for _, c := range cells {
		e.add(t, c)
	}
	return e
}

// add parses a cell as the session's next and records what it declares.
func (e *testEnv) add(t *testing.T, cell string) {
	t.Helper()
	p, err := Parse(cell, e)
	if err != nil {
		t.Fatalf("session cell %q: %v", cell, err)
	}
	if len(p.Units) > 0 && p.Units[0].Kind == KindImport {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p;"+p.Units[0].Text, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range f.Imports {
			path, _ := strconv.Unquote(is.Path.Value)
			name := pathBase(path)
			if is.Name != nil {
				name = is.Name.Name
			}
			e.addImport(name, path)
		}
	}
	declared := map[string]bool{}
	for _, d := range p.Decls {
		e.decls = append(e.decls, d)
		for _, n := range d.Names {
			declared[n] = true
		}
	}
	for _, u := range p.Units {
		if u.Kind == KindImport {
			continue
		}
		for _, n := range u.Names {
			e.names[n] = true
			if u.Kinds[n] == "type" {
				e.typeNames[n] = n
			}
			if !declared[n] && u.Kinds[n] == "var" {
				e.vars = append(e.vars, n)
			}
		}
	}
	for n, internal := range p.Renamed {
		e.typeNames[n] = internal
	}
}

func pathBase(p string) string { return path.Base(p) }

func (e *testEnv) addImport(name, p string) {
	e.imports = append(e.imports, [2]string{name, p})
	e.names[name] = true
}

func (e *testEnv) Defined(n string) bool { return e.names[n] }
func (e *testEnv) PackagePath(n string) string {
	return map[string]string{"strings": "strings", "fmt": "fmt", "rand": "math/rand", "math": "math",
		"slices": "slices", "maps": "maps", "iter": "iter", "time": "time", "os": "os"}[n]
}
func (e *testEnv) PackageName(p string) string { return pathBase(p) }
func (e *testEnv) ImportPath(n string) string {
	for _, im := range e.imports {
		if im[0] == n {
			return im[1]
		}
	}
	return ""
}
func (e *testEnv) Imports() [][2]string { return e.imports }
func (e *testEnv) TypeName(n string) (string, bool) {
	in, ok := e.typeNames[n]
	return in, ok
}
func (e *testEnv) Types() *celltypes.Scope { return e.scope }
