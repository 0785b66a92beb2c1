package stdgeneric

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"

	"github.com/traefik/yaegi/interp"
	gen "github.com/traefik/yaegi/stdlib/generic"
)

// ImportPath is the import path under which the interpreted sources reach
// this package's compiled helpers.
const ImportPath = "goaccel.internal/stdgeneric"

// API is the exported API of the generic standard packages (cmp, iter, maps,
// slices) without function bodies, as "-- path --" sections: what
// go/types checks cells against (package celltypes) where the symbol tables
// cannot hold generic functions. gen writes it (go generate).
//
//go:embed api.go.txt
var API string

var (
	//go:embed slices.go.txt
	slicesSource string
	//go:embed maps.go.txt
	mapsSource string
	//go:embed iter.go.txt
	iterSource string
)

// Completes reports whether Load adds to the package at importPath, so that
// a session can load them when a cell first imports one of them.
func Completes(importPath string) bool {
	switch importPath {
	case "cmp", "iter", "maps", "slices":
		return true
	}
	return false
}

// Load compiles the missing generic functions of slices and maps, and
// package iter, into i, which must already use yaegi's stdlib symbols.
func Load(i *interp.Interpreter) error {
	err := i.Use(interp.Exports{ImportPath + "/stdgeneric": {
		"SortOrdered":     reflect.ValueOf(SortOrdered),
		"SortSlice":       reflect.ValueOf(SortSlice),
		"SortSliceStable": reflect.ValueOf(SortSliceStable),
		"MinIndex":        reflect.ValueOf(MinIndex),
		"MaxIndex":        reflect.ValueOf(MaxIndex),
	}})
	if err != nil {
		return fmt.Errorf("stdgeneric: load helpers: %w", err)
	}
	// Each source gets its own file name: yaegi scopes imports by file, and
	// its own copies of these packages already imported cmp in theirs.
	for _, f := range []struct{ name, src string }{
		{"iter", iterSource}, {"slices", slicesSource}, {"maps", mapsSource},
	} {
		file, err := parser.ParseFile(i.FileSet(), "goaccel_"+f.name+".go", f.src, 0)
		if err != nil {
			return fmt.Errorf("stdgeneric: parse %s: %w", f.name, err)
		}
		prog, err := i.CompileAST(file)
		if err == nil {
			_, err = i.Execute(prog)
		}
		if err != nil {
			return fmt.Errorf("stdgeneric: compile %s: %w", f.name, err)
		}
	}
	return nil
}

// Names lists the exported names of the packages Load completes, by import
// path: yaegi's own interpreted functions, Load's, and the packages' compiled
// symbols. They are for a package index (completion, automatic imports).
func Names() map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	sources := append([]string{iterSource, slicesSource, mapsSource}, gen.Sources[:]...)
	for _, src := range sources {
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		pkg := f.Name.Name
		for _, d := range f.Decls {
			for _, name := range declNames(d) {
				if ast.IsExported(name) && !seen[pkg+"."+name] {
					seen[pkg+"."+name] = true
					out[pkg] = append(out[pkg], name)
				}
			}
		}
	}
	for _, names := range out {
		sort.Strings(names)
	}
	return out
}

func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []string{d.Name.Name}
		}
	case *ast.GenDecl:
		var names []string
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				names = append(names, sp.Name.Name)
			case *ast.ValueSpec:
				for _, n := range sp.Names {
					names = append(names, n.Name)
				}
			}
		}
		return names
	}
	return nil
}
