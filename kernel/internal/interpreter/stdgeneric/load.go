package stdgeneric

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strconv"
	"strings"

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
	//go:embed errors.go.txt
	errorsSource string
	//go:embed sync.go.txt
	syncSource string
	//go:embed atomic.go.txt
	atomicSource string
	//go:embed unique.go.txt
	uniqueSource string
	//go:embed weak.go.txt
	weakSource string
	//go:embed reflect.go.txt
	reflectSource string
	//go:embed runtime.go.txt
	runtimeSource string
	//go:embed hkdf.go.txt
	hkdfSource string
	//go:embed pbkdf2.go.txt
	pbkdf2Source string
	//go:embed maphash.go.txt
	maphashSource string
	//go:embed rand.go.txt
	randSource string
	//go:embed sql.go.txt
	sqlSource string
	//go:embed unsafe.go.txt
	unsafeSource string
)

// sources are the interpreted parts of the packages whose symbol tables
// lack their generic functions and types, by import path.
var sources = map[string]string{
	"errors":        errorsSource,
	"sync":          syncSource,
	"sync/atomic":   atomicSource,
	"unique":        uniqueSource,
	"weak":          weakSource,
	"reflect":       reflectSource,
	"runtime":       runtimeSource,
	"crypto/hkdf":   hkdfSource,
	"crypto/pbkdf2": pbkdf2Source,
	"hash/maphash":  maphashSource,
	"math/rand/v2":  randSource,
	"database/sql":  sqlSource,
	"unsafe":        unsafeSource,
}

// Completes reports whether Load or LoadPackage adds to the package at
// importPath, so that a session can load them when a cell first imports
// one of them.
func Completes(importPath string) bool {
	return IsBase(importPath) || sources[importPath] != ""
}

// IsBase reports whether Load completes the package at importPath (cmp,
// iter, maps and slices); the others LoadPackage completes one by one.
func IsBase(importPath string) bool {
	switch importPath {
	case "cmp", "iter", "maps", "slices":
		return true
	}
	return false
}

// Imports lists the packages LoadPackage's source for importPath imports,
// whose symbol tables the interpreter must hold.
func Imports(importPath string) []string {
	src := sources[importPath]
	if src == "" {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	out := []string{importPath}
	for _, im := range f.Imports {
		if p, err := strconv.Unquote(im.Path.Value); err == nil && p != ImportPath {
			out = append(out, p)
		}
	}
	return out
}

// helpers makes the compiled helpers the interpreted sources call
// importable.
func helpers(i *interp.Interpreter) error {
	err := i.Use(interp.Exports{ImportPath + "/stdgeneric": {
		"SortOrdered":     reflect.ValueOf(SortOrdered),
		"SortSlice":       reflect.ValueOf(SortSlice),
		"SortSliceStable": reflect.ValueOf(SortSliceStable),
		"MinIndex":        reflect.ValueOf(MinIndex),
		"MaxIndex":        reflect.ValueOf(MaxIndex),

		"OnceFunc":               reflect.ValueOf(OnceFunc),
		"Mutex":                  reflect.ValueOf((*Mutex)(nil)),
		"UniqueMake":             reflect.ValueOf(UniqueMake),
		"UniqueValue":            reflect.ValueOf(UniqueValue),
		"WeakMake":               reflect.ValueOf(WeakMake),
		"WeakValue":              reflect.ValueOf(WeakValue),
		"AddCleanup":             reflect.ValueOf(AddCleanup),
		"HKDFExtract":            reflect.ValueOf(HKDFExtract),
		"HKDFExpand":             reflect.ValueOf(HKDFExpand),
		"HKDFKey":                reflect.ValueOf(HKDFKey),
		"PBKDF2Key":              reflect.ValueOf(PBKDF2Key),
		"MaphashComparable":      reflect.ValueOf(MaphashComparable),
		"MaphashWriteComparable": reflect.ValueOf(MaphashWriteComparable),
		"SQLScan":                reflect.ValueOf(SQLScan),
		"RandUint64N":            reflect.ValueOf(RandUint64N),
		"UnsafeSlice":            reflect.ValueOf(UnsafeSlice),
	}})
	if err != nil {
		return fmt.Errorf("stdgeneric: load helpers: %w", err)
	}
	return nil
}

// Load compiles the missing generic functions of slices and maps, and
// package iter, into i, which must already use the standard library's
// symbol tables. Call it once per interpreter.
func Load(i *interp.Interpreter) error {
	if err := helpers(i); err != nil {
		return err
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

// LoadPackage compiles into i the generic functions and types of the
// standard package at importPath that its symbol table lacks (errors.AsType,
// sync.OnceValue, atomic.Pointer, …), if it has any and they are not
// there yet; i must hold the tables of Imports(importPath).
func LoadPackage(i *interp.Interpreter, importPath string) error {
	src := sources[importPath]
	if src == "" {
		return nil
	}
	if err := helpers(i); err != nil {
		return err
	}
	name := "goaccel_" + strings.ReplaceAll(importPath, "/", "_") + ".go"
	if err := i.ImportSource(importPath, map[string]string{name: src}); err != nil {
		return fmt.Errorf("stdgeneric: compile %s: %w", importPath, err)
	}
	return nil
}

// Names lists the exported names of the packages Load completes, by import
// path: yaegi's own interpreted functions, Load's, and the packages' compiled
// symbols. They are for a package index (completion, automatic imports).
func Names() map[string][]string {
	out := map[string][]string{}
	seen := map[string]bool{}
	srcs := map[string]string{}
	for i, src := range append([]string{iterSource, slicesSource, mapsSource}, gen.Sources[:]...) {
		srcs[fmt.Sprint(i)] = src // keyed by package name
	}
	for p, src := range sources {
		srcs[p] = src
	}
	for key, src := range srcs {
		f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		pkg := f.Name.Name
		if _, byPath := sources[key]; byPath {
			pkg = key
		}
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
