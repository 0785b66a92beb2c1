package stdgeneric

import (
	_ "embed"
	"fmt"
	"go/parser"
	"reflect"

	"github.com/traefik/yaegi/interp"
)

// ImportPath is the import path under which the interpreted sources reach
// this package's compiled helpers.
const ImportPath = "goaccel.internal/stdgeneric"

var (
	//go:embed slices.go.txt
	slicesSource string
	//go:embed maps.go.txt
	mapsSource string
	//go:embed iter.go.txt
	iterSource string
)

// Packages are the import paths whose generic functions Load completes:
// cells can import each of them.
var Packages = []string{"cmp", "iter", "maps", "slices"}

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
