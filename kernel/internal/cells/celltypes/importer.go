package celltypes

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"reflect"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/stdgeneric"
)

// Importer builds go/types packages from symbol tables (a types.Importer).
// Packages are built once, on first import. It is safe for concurrent use.
type Importer struct {
	mu      sync.Mutex
	tables  map[string]pkgTable // import path → its table
	pkgs    map[string]*types.Package
	types   map[reflect.Type]types.Type
	generic map[string]string // generic standard package → its API source
	fset    *token.FileSet
}

type pkgTable struct {
	name string
	syms map[string]reflect.Value
}

// genericAPI is the exported API of the generic standard packages.
var genericAPI = stdgeneric.API

// NewImporter returns an Importer of the packages the tables hold (yaegi's
// form: "importpath/name" → exported name → value); later tables add to
// earlier ones (their symbols replace those of the same name).
func NewImporter(tables ...interp.Exports) *Importer {
	imp := &Importer{tables: map[string]pkgTable{}, pkgs: map[string]*types.Package{},
		types: map[reflect.Type]types.Type{}, generic: map[string]string{}, fset: token.NewFileSet()}
	for _, t := range tables {
		for key, syms := range t {
			p, name := path.Dir(key), path.Base(key)
			pt, ok := imp.tables[p]
			if !ok {
				pt = pkgTable{name: name, syms: map[string]reflect.Value{}}
			}
			for k, v := range syms {
				pt.syms[k] = v
			}
			imp.tables[p] = pt
		}
	}
	for _, part := range strings.Split(genericAPI, "\n-- ")[1:] {
		head, src, _ := strings.Cut(part, " --\n")
		imp.generic[head] = src
	}
	return imp
}

// Has reports whether the importer knows the package at path.
func (imp *Importer) Has(path string) bool {
	_, ok := imp.tables[path]
	_, gen := imp.generic[path]
	return ok || gen || path == "unsafe"
}

// Import returns the package at path (types.Importer).
func (imp *Importer) Import(path string) (*types.Package, error) {
	imp.mu.Lock()
	defer imp.mu.Unlock()
	return imp.load(path)
}

func (imp *Importer) load(p string) (*types.Package, error) {
	if p == "unsafe" {
		return types.Unsafe, nil
	}
	if pkg, ok := imp.pkgs[p]; ok && pkg.Complete() {
		return pkg, nil
	}
	src, hasSrc := imp.generic[p]
	t, ok := imp.tables[p]
	if hasSrc && !ok {
		return imp.checkSource(p, src)
	}
	if !ok {
		return nil, fmt.Errorf("no symbol table for package %q", p)
	}
	pkg := imp.pkgFor(p, t.name)
	scope := pkg.Scope()
	for name, v := range t.syms {
		if strings.HasPrefix(name, "_") || !v.IsValid() || scope.Lookup(name) != nil {
			continue
		}
		scope.Insert(imp.object(pkg, name, v))
	}
	if hasSrc {
		// The generic functions and types the table cannot hold.
		imp.addSource(pkg, src)
	}
	pkg.MarkComplete()
	return pkg, nil
}

// addSource type-checks the API source of a package's generic functions
// and types into pkg, which holds the package's table.
func (imp *Importer) addSource(pkg *types.Package, src string) {
	f, err := parser.ParseFile(imp.fset, pkg.Path()+".go", src, 0)
	if err != nil {
		return
	}
	conf := types.Config{Importer: importerFunc(imp.load), Error: func(error) {}}
	_ = types.NewChecker(&conf, imp.fset, pkg, nil).Files([]*ast.File{f})
}

// checkSource type-checks the API source of a generic standard package.
func (imp *Importer) checkSource(p, src string) (*types.Package, error) {
	f, err := parser.ParseFile(imp.fset, p+".go", src, 0)
	if err != nil {
		return nil, fmt.Errorf("parse the API of %s: %w", p, err)
	}
	conf := types.Config{Importer: importerFunc(imp.load), Error: func(error) {}}
	pkg, err := conf.Check(p, imp.fset, []*ast.File{f}, nil)
	if pkg == nil {
		return nil, err
	}
	imp.pkgs[p] = pkg
	return pkg, nil
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(p string) (*types.Package, error) { return f(p) }

// pkgFor returns the package object for path, made on first use (a package
// named by a type before it is imported, or never importable itself).
func (imp *Importer) pkgFor(p, name string) *types.Package {
	if pkg, ok := imp.pkgs[p]; ok {
		return pkg
	}
	if name == "" {
		name = path.Base(p)
		if t, ok := imp.tables[p]; ok {
			name = t.name
		}
	}
	pkg := types.NewPackage(p, name)
	imp.pkgs[p] = pkg
	return pkg
}

var constantValue = reflect.TypeOf((*constant.Value)(nil)).Elem()

// object converts one symbol: a type ((*T)(nil)), a variable (addressable),
// a function, or a constant (a constant.Value when untyped).
func (imp *Importer) object(pkg *types.Package, name string, v reflect.Value) types.Object {
	t := v.Type()
	switch {
	case t.Implements(constantValue) && v.Kind() != reflect.Pointer:
		c := v.Interface().(constant.Value)
		return types.NewConst(token.NoPos, pkg, name, untypedOf(c), c)
	case v.CanAddr():
		return types.NewVar(token.NoPos, pkg, name, imp.typeOf(t))
	case t.Kind() == reflect.Pointer && v.IsNil():
		typ := imp.typeOf(t.Elem())
		if n, ok := typ.(*types.Named); ok && n.Obj().Pkg() == pkg && n.Obj().Name() == name {
			return n.Obj()
		}
		return types.NewTypeName(token.NoPos, pkg, name, typ) // an alias
	case t.Kind() == reflect.Func:
		return types.NewFunc(token.NoPos, pkg, name, imp.typeOf(t).(*types.Signature))
	}
	if c := constantOf(v); c != nil {
		return types.NewConst(token.NoPos, pkg, name, imp.typeOf(t), c)
	}
	return types.NewVar(token.NoPos, pkg, name, imp.typeOf(t))
}

func untypedOf(c constant.Value) types.Type {
	switch c.Kind() {
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Int:
		return types.Typ[types.UntypedInt]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.Invalid]
}

// constantOf returns the constant value of a typed constant's symbol.
func constantOf(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	case reflect.String:
		return constant.MakeString(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	}
	return nil
}
