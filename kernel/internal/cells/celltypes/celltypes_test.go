package celltypes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/symbols"
)

func newImporter() *Importer { return NewImporter(stdlib.Symbols, symbols.Symbols) }

func TestImporterBuildsPackagesFromSymbolTables(t *testing.T) {
	imp := newImporter()
	for _, tc := range []struct{ pkg, name, want string }{
		{"strings", "Fields", "func(string) []string"},
		{"math", "Pi", "untyped float"},
		{"time", "Second", "time.Duration"},
		{"os", "Stdout", "*os.File"},
		{"github.com/goaccel/goaccel/data", "RandomSplit", "func(github.com/goaccel/goaccel/data.Dataset, []int, uint64) []*github.com/goaccel/goaccel/data.Subset"},
		{"slices", "Max", "func[S ~[]E, E cmp.Ordered](x S) E"},
		{"iter", "Seq", "iter.Seq[V any]"},
	} {
		pkg, err := imp.Import(tc.pkg)
		if err != nil {
			t.Fatalf("Import(%s): %v", tc.pkg, err)
		}
		obj := pkg.Scope().Lookup(tc.name)
		if obj == nil {
			t.Errorf("%s.%s is missing", tc.pkg, tc.name)
			continue
		}
		if got := types.TypeString(obj.Type(), func(p *types.Package) string {
			if p.Path() == "cmp" || p.Path() == "iter" || p.Path() == "time" || p.Path() == "os" {
				return p.Name()
			}
			return p.Path()
		}); got != tc.want {
			t.Errorf("%s.%s: %s, want %s", tc.pkg, tc.name, got, tc.want)
		}
	}
	pkg, _ := imp.Import("strings")
	b := pkg.Scope().Lookup("Builder").Type()
	if m, _, _ := types.LookupFieldOrMethod(types.NewPointer(b), true, pkg, "WriteString"); m == nil {
		t.Error("*strings.Builder has no WriteString method")
	}
}

// cell parses src as one file of the scope's package with imports.
func cell(t *testing.T, sc *Scope, src string, imports ...[2]string) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(sc.FileSet(), "cell.go", "package main\n"+src, 0)
	if err != nil {
		t.Fatal(err)
	}
	AddImports(f, imports)
	return f
}

func typeOfVar(sc *Scope, name string) string {
	obj := sc.Lookup(name)
	if obj == nil {
		return "<nil>"
	}
	return types.TypeString(obj.Type(), func(p *types.Package) string { return p.Name() })
}

func TestScopeKeepsTheSessionsNamesAcrossCellsAndRebuilds(t *testing.T) {
	var sess Session
	sc := NewScope(newImporter(), func() Session { return sess })
	data := [2]string{"data", "github.com/goaccel/goaccel/data"}
	tensors := [2]string{"tensors", "github.com/goaccel/goaccel/tensors"}
	c := sc.Check([]*ast.File{cell(t, sc, "var ds = data.NewTensorDataset(tensors.Zeros(4), tensors.Zeros(4))\nvar parts = data.RandomSplit(ds, []int{2, 2}, 1)", data, tensors)}, []string{"ds", "parts"}, false)
	if len(c.Errors) > 0 {
		t.Fatalf("errors: %v", c.Errors)
	}
	sess.Imports = [][2]string{data, tensors}
	sess.Vars = []string{"ds", "parts"}
	c = sc.Check([]*ast.File{cell(t, sc, "type point struct{ x, y int }\nvar small = parts[0]")}, []string{"point", "small"}, false)
	if len(c.Errors) > 0 {
		t.Fatalf("errors: %v", c.Errors)
	}
	if got := typeOfVar(sc, "small"); got != "*data.Subset" {
		t.Errorf("small: %s", got)
	}
	sess.Decls = append(sess.Decls, Decl{Names: []string{"point"}, Text: "type point struct{ x, y int }"})
	sess.Vars = append(sess.Vars, "small")
	// A method forces a rebuild: the session's names must survive it, with
	// unexported fields still reachable.
	c = sc.Check([]*ast.File{cell(t, sc, "func (p point) sum() int { return p.x + p.y }\nvar n = small.Len() + point{1, 2}.sum()")}, []string{"point.sum", "n"}, true)
	if len(c.Errors) > 0 {
		t.Fatalf("errors after a rebuild: %v", c.Errors)
	}
	if got := typeOfVar(sc, "parts"); got != "[]*data.Subset" {
		t.Errorf("parts after a rebuild: %s", got)
	}
	// Redefining a name replaces it.
	c = sc.Check([]*ast.File{cell(t, sc, "var small = \"text\"")}, []string{"small"}, false)
	if len(c.Errors) > 0 || typeOfVar(sc, "small") != "string" {
		t.Errorf("redefined small: %s %v", typeOfVar(sc, "small"), c.Errors)
	}
	c = sc.Check([]*ast.File{cell(t, sc, "var bad = undefinedName")}, []string{"bad"}, false)
	if len(c.Errors) != 1 || !strings.Contains(c.Errors[0].Msg, "undefined: undefinedName") {
		t.Errorf("errors %v; want undefined: undefinedName", c.Errors)
	}
}

// A statement checked again and again keeps the package bounded: go/types
// keeps every file it checked (a file scope, the cell's init function and
// its syntax), so the Scope starts the package afresh from the session's
// declarations every rebuildEvery checks and forgets the earlier cells'
// files, while the session's names and the variables' types stay.
func TestScopeStaysBoundedOverManyCells(t *testing.T) {
	fmtImport := [2]string{"fmt", "fmt"}
	sess := Session{Imports: [][2]string{fmtImport}, Decls: []Decl{{Names: []string{"twice"}, Text: "func twice(x float64) float64 { return 2 * x }"}}, Vars: []string{"acc"}}
	sc := NewScope(newImporter(), func() Session { return sess })
	c := sc.Check([]*ast.File{cell(t, sc, sess.Decls[0].Text+"\nvar acc = 0.0", fmtImport)}, []string{"acc", "twice"}, false)
	if len(c.Errors) > 0 {
		t.Fatalf("errors: %v", c.Errors)
	}
	for range 1000 {
		c = sc.Check([]*ast.File{cell(t, sc, "func init() { acc += twice(1); fmt.Println(acc) }", fmtImport)}, nil, false)
		if len(c.Errors) > 0 {
			t.Fatalf("errors: %v", c.Errors)
		}
	}
	files := 0
	sc.FileSet().Iterate(func(*token.File) bool { files++; return true })
	if n := sc.Package().Scope().NumChildren(); n > rebuildEvery+1 {
		t.Errorf("after 1,000 checks the package has %d file scopes, want at most %d", n, rebuildEvery+1)
	}
	if files > rebuildEvery+2 {
		t.Errorf("after 1,000 checks the file set holds %d files, want at most %d", files, rebuildEvery+2)
	}
	if got := typeOfVar(sc, "acc"); got != "float64" {
		t.Errorf("acc: %s, want float64", got)
	}
}
