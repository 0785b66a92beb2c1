package symbols

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// userFacing are the repository's packages that notebook cells use (DESIGN.md).
var userFacing = []string{"tensors", "nn", "optim", "data", "datasets", "accelerate", "display", "plots", "progress", "notebook_launcher", "cuda", "tokenizers",
	"transformers", "transformers/bert", "transformers/distilbert", "transformers/roberta", "transformers/gpt2", "transformers/llama"}

const module = "github.com/goaccel/goaccel"

func listed() map[string]bool {
	m := map[string]bool{}
	for _, p := range Packages() {
		m[p] = true
	}
	return m
}

func TestEveryUserFacingPackageIsListed(t *testing.T) {
	l := listed()
	for _, dir := range userFacing {
		files, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", dir, "*.go"))
		if len(files) == 0 {
			t.Fatalf("no Go files in %s (from %s): the test looks in the wrong folder", dir, filepath.Join("..", "..", "..", ".."))
		}
		hasCode := false
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				hasCode = true
			}
		}
		if hasCode && !l[module+"/"+dir] {
			t.Errorf("%s/%s is user-facing but missing from packages.txt: add it and run go generate ./kernel/internal/interpreter/symbols", module, dir)
		}
	}
	for _, p := range []string{"gonum.org/v1/plot", "gonum.org/v1/plot/plotter", "gonum.org/v1/plot/vg"} {
		if !l[p] {
			t.Errorf("%s missing from packages.txt: cells need it to draw figures", p)
		}
	}
}

// exported returns the names yaegi extract writes for the package in dir:
// exported non-generic funcs, types, vars and consts, and a "_Name" wrapper
// for each exported non-generic interface with methods.
func exported(t *testing.T, importPath string) (pkgName string, names map[string]bool) {
	t.Helper()
	wd, _ := os.Getwd()
	bp, err := build.Default.Import(importPath, wd, 0)
	if err != nil {
		t.Fatalf("find %s: %v", importPath, err)
	}
	names = map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() && d.Type.TypeParams == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() || s.TypeParams != nil {
							continue
						}
						names[s.Name.Name] = true
						if it, ok := s.Type.(*ast.InterfaceType); ok && hasMethods(it) {
							names["_"+s.Name.Name] = true
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return bp.Name, names
}

func hasMethods(it *ast.InterfaceType) bool {
	for _, m := range it.Methods.List {
		switch m.Type.(type) {
		case *ast.FuncType, *ast.Ident, *ast.SelectorExpr: // a method or an embedded interface
			return true
		}
	}
	return false
}

func TestSymbolsAreCurrent(t *testing.T) {
	for _, p := range Packages() {
		t.Run(p, func(t *testing.T) {
			name, want := exported(t, p)
			table, ok := Symbols[path.Join(p, name)]
			if !ok {
				t.Fatalf("no generated table for %s: run go generate ./kernel/internal/interpreter/symbols", p)
			}
			var missing, extra []string
			for n := range want {
				if _, ok := table[n]; !ok {
					missing = append(missing, n)
				}
			}
			for n := range table {
				// An alias of an interface from another package gets a wrapper
				// the syntax here cannot predict; the type itself is checked.
				if strings.HasPrefix(n, "_") && want[n[1:]] {
					continue
				}
				if !want[n] {
					extra = append(extra, n)
				}
			}
			sort.Strings(missing)
			sort.Strings(extra)
			if len(missing)+len(extra) > 0 {
				t.Errorf("table for %s is stale (missing %v, no longer exported %v): run go generate ./kernel/internal/interpreter/symbols", p, missing, extra)
			}
		})
	}
}
