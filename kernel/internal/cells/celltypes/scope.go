package celltypes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"sync"

	"github.com/goaccel/goaccel/kernel/internal/program"
)

// Decl is one declaration of the session as the user wrote it, for
// rebuilding a Scope: the declaration record's entry (only its Names and
// Text matter here).
type Decl = program.Decl

// Session is what a Scope rebuilds itself from: the session's imports
// (name, path) and declarations in definition order, and the names of the
// variables top-level statements defined (whose types the Scope keeps).
type Session struct {
	Imports [][2]string
	Decls   []Decl
	Vars    []string
}

// Scope is the session as go/types sees it: one package, "main", holding
// every name the notebook declared. Each cell is checked against it and adds
// its own names; a cell that declares a name the package has, or a method,
// makes the Scope rebuild the package from the session's declarations first
// (go/types can add names to a package, not replace them). It is safe for
// concurrent use.
type Scope struct {
	mu      sync.Mutex
	imp     types.Importer
	fset    *token.FileSet
	source  func() Session
	pkg     *types.Package
	checker *types.Checker
	info    *types.Info
	errs    []types.Error
	dirty   bool
	checks  int // Checks since the package was last started
	mark    int // the file set's base when the last Check ended: earlier cells' files are below it
}

// rebuildEvery bounds the Checks between two rebuilds. go/types keeps every
// file it checked in the package (its scope, the objects and syntax of its
// init functions) even when it declares nothing, so a session re-running a
// statement would grow without end; a rebuild, which re-checks only the
// declarations, starts afresh.
const rebuildEvery = 64

// NewScope returns an empty session scope importing packages with imp (nil:
// imports fail and what they declare has no type). source, when not nil,
// gives the session to rebuild from.
func NewScope(imp types.Importer, source func() Session) *Scope {
	sc := &Scope{imp: imp, fset: token.NewFileSet(), source: source}
	sc.reset()
	return sc
}

// FileSet is the file set a cell's files must be parsed into.
func (sc *Scope) FileSet() *token.FileSet { return sc.fset }

// reset starts an empty package.
func (sc *Scope) reset() {
	sc.pkg = types.NewPackage("main", "main")
	sc.info = &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Defs:  map[*ast.Ident]types.Object{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	imp := sc.imp
	if imp == nil {
		imp = noImporter{}
	}
	conf := &types.Config{Importer: imp, Error: func(err error) {
		// Soft errors (unused variables and imports) are Go's rules for
		// programs, not for cells, whose imports serve later cells.
		if te, ok := err.(types.Error); ok && !te.Soft {
			sc.errs = append(sc.errs, te)
		}
	}, FakeImportC: true}
	sc.checker = types.NewChecker(conf, sc.fset, sc.pkg, sc.info)
	sc.dirty = false
	sc.checks = 0
}

// forgetFiles removes the files below base from the file set: those of the
// cells checked before, which a rebuild leaves out of the package.
func (sc *Scope) forgetFiles(base int) {
	var old []*token.File
	sc.fset.Iterate(func(f *token.File) bool {
		if f.Base() < base {
			old = append(old, f)
		}
		return true
	})
	for _, f := range old {
		sc.fset.RemoveFile(f)
	}
}

type noImporter struct{}

func (noImporter) Import(p string) (*types.Package, error) {
	return nil, &importError{p}
}

type importError struct{ path string }

func (e *importError) Error() string { return "no importer for " + strconv.Quote(e.path) }

// Checked is the outcome of checking one cell.
type Checked struct {
	Info *types.Info
	// Errors are what go/types found wrong, in the order found. The
	// interpreter is the judge of a cell; these explain its errors better.
	Errors []types.Error
	// Package is the session package after the check.
	Package *types.Package
}

// Check type-checks a cell's files, parsed into FileSet and holding the
// imports they use, against the session, and adds the cell's package-level
// names to it. declares lists the names the cell declares; methods says
// whether it declares methods.
func (sc *Scope) Check(files []*ast.File, declares []string, methods bool) Checked {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	rebuild := sc.dirty || methods || sc.checks >= rebuildEvery && sc.source != nil
	for _, n := range declares {
		if sc.pkg.Scope().Lookup(n) != nil {
			rebuild = true
		}
	}
	if rebuild {
		sc.forgetFiles(sc.mark)
		files = append(sc.rebuild(declares), files...)
	}
	sc.checks++
	clear(sc.info.Types)
	clear(sc.info.Defs)
	clear(sc.info.Uses)
	sc.errs = nil
	_ = sc.checker.Files(files)
	sc.mark = sc.fset.Base()
	return Checked{Info: sc.info, Errors: sc.errs, Package: sc.pkg}
}

// Discard says the cell last checked did not run (or only partly): the
// names it added must go, so the next Check rebuilds the package.
func (sc *Scope) Discard() {
	sc.mu.Lock()
	sc.dirty = true
	sc.mu.Unlock()
}

// Reset forgets every name (%reset).
func (sc *Scope) Reset() {
	sc.mu.Lock()
	sc.reset()
	sc.mu.Unlock()
}

// Lookup returns the object the session declares as name, or nil.
func (sc *Scope) Lookup(name string) types.Object {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.pkg.Scope().Lookup(name)
}

// Package returns the session package.
func (sc *Scope) Package() *types.Package {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.pkg
}

// rebuild starts a new package holding the session's declarations except
// those of the names in drop (and the methods of types in drop), and
// returns their files for the next check; the variables that statements
// defined keep their types.
func (sc *Scope) rebuild(drop []string) []*ast.File {
	old := sc.pkg
	var sess Session
	if sc.source != nil {
		sess = sc.source()
	}
	sc.reset()
	dropped := map[string]bool{}
	for _, n := range drop {
		dropped[n] = true
	}
	var files []*ast.File
	for _, d := range sess.Decls {
		if keep(d.Names, dropped) {
			if f := sc.parseDecl(d.Text, sess.Imports); f != nil {
				files = append(files, f)
			}
		}
	}
	q := newQualifier(sess.Imports, old)
	var vars strings.Builder
	for _, n := range sess.Vars {
		if dropped[n] {
			continue
		}
		v, ok := old.Scope().Lookup(n).(*types.Var)
		if !ok {
			continue
		}
		if src, ok := q.typeSource(v.Type()); ok {
			vars.WriteString("var " + n + " " + src + "\n")
		} else {
			sc.pkg.Scope().Insert(types.NewVar(token.NoPos, sc.pkg, n, v.Type()))
		}
	}
	if vars.Len() > 0 {
		if f := sc.parseDecl(vars.String(), q.imports()); f != nil {
			files = append(files, f)
		}
	}
	return files
}

func keep(names []string, dropped map[string]bool) bool {
	for _, n := range names {
		recv, _, isMethod := strings.Cut(n, ".")
		if dropped[n] || isMethod && dropped[recv] {
			return false
		}
	}
	return true
}

// parseDecl parses a declaration into a file that imports imports.
func (sc *Scope) parseDecl(text string, imports [][2]string) *ast.File {
	f, err := parser.ParseFile(sc.fset, "session.go", "package main\n"+text, 0)
	if err != nil {
		return nil
	}
	AddImports(f, imports)
	return f
}

// AddImports gives a file import declarations for imports (name, path);
// blank and dot imports are left out (they act in their own cell).
func AddImports(f *ast.File, imports [][2]string) {
	if len(imports) == 0 {
		return
	}
	g := &ast.GenDecl{Tok: token.IMPORT}
	for _, im := range imports {
		if im[0] == "_" || im[0] == "." {
			continue
		}
		spec := &ast.ImportSpec{Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(im[1])}, Name: ast.NewIdent(im[0])}
		g.Specs = append(g.Specs, spec)
		f.Imports = append(f.Imports, spec)
	}
	f.Decls = append([]ast.Decl{g}, f.Decls...)
}
