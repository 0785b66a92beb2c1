package session

import (
	"path"
	"reflect"
	"sort"
	"strings"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/stdgeneric"
)

// packageIndex knows every package cells can import: name → import paths,
// and import path → exported symbols.
type packageIndex struct {
	byName map[string][]string
	nameOf map[string]string // import path → package name
	syms   map[string]map[string]reflect.Value
}

// preferred breaks ties between packages with the same name, as goimports
// users expect.
var preferred = map[string]string{
	"rand": "math/rand", "template": "text/template", "scanner": "text/scanner",
	"pprof": "runtime/pprof", "parser": "go/parser", "constant": "go/constant",
}

func newPackageIndex(tables ...interp.Exports) packageIndex {
	ix := packageIndex{byName: map[string][]string{}, nameOf: map[string]string{}, syms: map[string]map[string]reflect.Value{}}
	for _, t := range tables {
		for key, syms := range t {
			dir, name := path.Dir(key), path.Base(key)
			if dir == "." || strings.Contains(dir, "internal") || strings.HasPrefix(name, "_") ||
				strings.HasPrefix(dir, "github.com/traefik/yaegi") {
				continue
			}
			if ix.syms[dir] == nil {
				ix.syms[dir] = map[string]reflect.Value{}
				ix.byName[name] = append(ix.byName[name], dir)
				ix.nameOf[dir] = name
			}
			for k, v := range syms {
				ix.syms[dir][k] = v
			}
		}
	}
	for name, paths := range ix.byName {
		sort.Slice(paths, func(i, j int) bool {
			pi, pj := paths[i] == preferred[name], paths[j] == preferred[name]
			if pi != pj {
				return pi
			}
			if len(paths[i]) != len(paths[j]) {
				return len(paths[i]) < len(paths[j])
			}
			return paths[i] < paths[j]
		})
	}
	return ix
}

// path returns the import path for a package name, "" when none.
func (ix packageIndex) path(name string) string {
	if p := ix.byName[name]; len(p) > 0 {
		return p[0]
	}
	return ""
}

// members returns the exported names of the package at import path p.
func (ix packageIndex) members(p string) []string {
	var out []string
	for k := range ix.syms[p] {
		if !strings.HasPrefix(k, "_") {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// names returns every package name.
func (ix packageIndex) names() []string {
	var out []string
	for n := range ix.byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// genericIndex is the package index's entry for the generic standard
// packages: the interpreter holds their functions as source, not as values,
// so the index knows only their names (its values are invalid).
func genericIndex() interp.Exports {
	out := interp.Exports{}
	for pkg, names := range stdgeneric.Names() {
		syms := map[string]reflect.Value{}
		for _, n := range names {
			syms[n] = reflect.Value{}
		}
		out[pkg+"/"+pkg] = syms
	}
	return out
}
