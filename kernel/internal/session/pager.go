package session

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Doc returns the documentation page of a symbol, as IPython's "?" shows:
// strings.Split, strings.Builder.WriteString, display.HTML, a session
// variable, function or type, or x.Method for a session variable x.
func (s *Session) Doc(symbol string) (string, bool) {
	parts := strings.Split(strings.Trim(symbol, ". "), ".")
	if len(parts) == 0 || parts[0] == "" {
		return "", false
	}
	if p := s.packagePathOf(parts[0]); p != "" {
		if len(parts) == 1 {
			return s.docs.packageDoc(p)
		}
		if page, ok := s.docs.symbolDoc(p, parts[1:]); ok {
			return page, true
		}
		return s.reflectDoc(p, parts[1])
	}
	kind := s.kindOf(parts[0])
	decl := s.declLine(parts[0])
	typ := s.typeText(parts[0])
	if len(parts) == 1 {
		switch {
		case decl != "":
			return decl + "\n\n(declared in this notebook)", true
		case kind != "":
			if v, ok := s.valueOf(parts[0]); ok {
				if typ == "" && v.IsValid() {
					typ = typeString(v.Type())
				}
				return fmt.Sprintf("%s %s %s = %s", kind, parts[0], typ, s.plain(v)), true
			}
		}
	}
	if v, ok := s.valueOf(parts[0]); ok && v.IsValid() {
		t := v.Type()
		if t.Kind() == reflect.Interface && !v.IsNil() {
			t = v.Elem().Type()
		}
		if len(parts) == 1 {
			return fmt.Sprintf("var %s %s = %s", parts[0], typeString(t), s.plain(v)), true
		}
		named := t
		if named.Kind() == reflect.Pointer {
			named = named.Elem()
		}
		if named.PkgPath() != "" {
			return s.docs.symbolDoc(named.PkgPath(), []string{named.Name(), parts[len(parts)-1]})
		}
	}
	return "", false
}

// reflectDoc is the fallback when a package's source is not reachable: the
// symbol's kind and type from the interpreter's symbol table.
func (s *Session) reflectDoc(p, name string) (string, bool) {
	v, ok := s.pkgs.syms[p][name]
	if !ok || !v.IsValid() {
		return "", false
	}
	pkg := s.pkgs.nameOf[p]
	switch {
	case v.Kind() == reflect.Func:
		return fmt.Sprintf("func %s.%s%s\n\n(signature from the symbol table; the source of %s was not found)", pkg, name, strings.TrimPrefix(v.Type().String(), "func"), p), true
	case v.Kind() == reflect.Pointer && v.IsNil():
		return fmt.Sprintf("type %s.%s %s", pkg, name, v.Type().Elem().Kind()), true
	}
	return fmt.Sprintf("%s.%s %s", pkg, name, v.Type()), true
}

// Inspect returns the documentation of the symbol under (or just before) the
// cursor, for inspect_request.
func (s *Session) Inspect(code string, cursor int, detailLevel int) (found bool, data map[string]any) {
	sym := symbolAt(code, byteOffset(code, cursor))
	if sym == "" {
		return false, map[string]any{}
	}
	page, ok := s.Doc(sym)
	if src, has := s.source(sym); has && (detailLevel > 0 || !ok) {
		page, ok = src, true
	}
	if !ok {
		return false, map[string]any{}
	}
	return true, map[string]any{"text/plain": page}
}

// source returns the full source of a func, method or type a cell declared.
func (s *Session) source(sym string) (string, bool) {
	d, ok := s.symbol(sym)
	if !ok || d.Decl == nil || d.Kind != "func" && d.Kind != "method" && d.Kind != "type" {
		return "", false
	}
	return d.Decl.Text, true
}

// symbolAt returns the a.b.c chain around byte offset off, or the one just
// before an opening parenthesis there (the call being typed).
func symbolAt(code string, off int) string {
	left := selectorSuffix(code[:off])
	right := code[off:]
	if i := strings.IndexFunc(right, func(r rune) bool { return !isIdentRune(r) }); i >= 0 {
		right = right[:i]
	}
	if sym := strings.Trim(left+right, "."); sym != "" {
		return sym
	}
	before := strings.TrimRight(code[:off], " \t")
	if strings.HasSuffix(before, "(") {
		return strings.Trim(selectorSuffix(strings.TrimSuffix(before, "(")), ".")
	}
	return ""
}

// docIndex loads and caches go/doc packages from source.
type docIndex struct {
	mu   sync.Mutex
	pkgs map[string]*docPkg
}

type docPkg struct {
	fset *token.FileSet
	pkg  *doc.Package
}

func (d *docIndex) load(importPath string) *docPkg {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pkgs == nil {
		d.pkgs = map[string]*docPkg{}
	}
	if p, ok := d.pkgs[importPath]; ok {
		return p
	}
	var p *docPkg
	if dir := sourceDir(importPath); dir != "" {
		p = parseDocDir(dir, importPath)
	}
	d.pkgs[importPath] = p
	return p
}

func parseDocDir(dir, importPath string) *docPkg {
	fset := token.NewFileSet()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		if ok, _ := build.Default.MatchFile(dir, filepath.Base(n)); !ok {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.ParseComments)
		if err == nil && !strings.HasSuffix(f.Name.Name, "_test") && f.Name.Name != "main" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil
	}
	pkg, err := doc.NewFromFiles(fset, files, importPath)
	if err != nil {
		return nil
	}
	return &docPkg{fset: fset, pkg: pkg}
}

func (d *docIndex) packageDoc(importPath string) (string, bool) {
	p := d.load(importPath)
	if p == nil {
		return "", false
	}
	return fmt.Sprintf("package %s // import %q\n\n%s", p.pkg.Name, importPath, p.pkg.Doc), true
}

// symbolDoc finds Name, Type.Method or Type.Field's type in a package.
func (d *docIndex) symbolDoc(importPath string, parts []string) (string, bool) {
	p := d.load(importPath)
	if p == nil || len(parts) == 0 {
		return "", false
	}
	name := parts[0]
	for _, f := range p.pkg.Funcs {
		if f.Name == name {
			return p.page(f.Decl, f.Doc), true
		}
	}
	for _, t := range p.pkg.Types {
		if len(parts) > 1 && t.Name == name {
			for _, m := range t.Methods {
				if m.Name == parts[1] {
					return p.page(m.Decl, m.Doc), true
				}
			}
		}
		if t.Name == name && len(parts) == 1 {
			return p.page(t.Decl, t.Doc), true
		}
		for _, f := range t.Funcs {
			if f.Name == name {
				return p.page(f.Decl, f.Doc), true
			}
		}
		for _, v := range append(t.Consts, t.Vars...) {
			if contains(v.Names, name) {
				return p.page(v.Decl, v.Doc), true
			}
		}
	}
	for _, v := range append(p.pkg.Consts, p.pkg.Vars...) {
		if contains(v.Names, name) {
			return p.page(v.Decl, v.Doc), true
		}
	}
	return "", false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// page renders a declaration and its doc comment.
func (p *docPkg) page(decl ast.Node, docText string) string {
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 4}
	if err := cfg.Fprint(&buf, p.fset, decl); err != nil {
		buf.WriteString(fmt.Sprint(decl))
	}
	if docText != "" {
		buf.WriteString("\n\n")
		buf.WriteString(strings.TrimSpace(docText))
	}
	return buf.String()
}

// sourceDir finds the source directory of a package at run time: GOROOT for
// the standard library; the module checkout this binary was built from, the
// go command's view or the module cache for the others.
func sourceDir(importPath string) string {
	first := strings.Split(importPath, "/")[0]
	if !strings.Contains(first, ".") {
		if root := goroot(); root != "" {
			return existingDir(filepath.Join(root, "src", importPath))
		}
		return ""
	}
	if dir := moduleCheckoutDir(importPath); dir != "" {
		return dir
	}
	if wd, err := os.Getwd(); err == nil {
		if bp, err := build.Default.Import(importPath, wd, build.FindOnly); err == nil {
			if d := existingDir(bp.Dir); d != "" {
				return d
			}
		}
	}
	return moduleCacheDir(importPath)
}

func existingDir(d string) string {
	if fi, err := os.Stat(d); err == nil && fi.IsDir() {
		return d
	}
	return ""
}

var goroot = sync.OnceValue(func() string {
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		if r := strings.TrimSpace(string(out)); r != "" {
			return r
		}
	}
	// No go command on PATH: a GOROOT in the environment, else the usual place.
	if r := os.Getenv("GOROOT"); r != "" {
		return r
	}
	return existingDir("/usr/local/go")
})

const modulePath = "github.com/goaccel/goaccel"

// moduleCheckoutDir maps our own packages to the checkout this file was
// compiled from, when it still exists.
func moduleCheckoutDir(importPath string) string {
	if importPath != modulePath && !strings.HasPrefix(importPath, modulePath+"/") {
		return ""
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// The module's root is the nearest folder above this file with a go.mod.
	for root := filepath.Dir(file); root != filepath.Dir(root); root = filepath.Dir(root) {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			return existingDir(filepath.Join(root, strings.TrimPrefix(importPath, modulePath)))
		}
	}
	return ""
}

// moduleCacheDir finds a dependency in the module cache at the version this
// binary was built with.
func moduleCacheDir(importPath string) string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
			cache = strings.TrimSpace(string(out))
		}
	}
	if cache == "" {
		return ""
	}
	for _, m := range info.Deps {
		if importPath == m.Path || strings.HasPrefix(importPath, m.Path+"/") {
			return existingDir(filepath.Join(cache, m.Path+"@"+m.Version, strings.TrimPrefix(importPath, m.Path)))
		}
	}
	return ""
}
