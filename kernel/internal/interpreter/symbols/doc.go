// Package symbols holds the generated `yaegi extract` tables that make
// goaccel's user-facing packages (and gonum/plot) importable from notebook
// cells, interface wrappers included so that cell types can implement our
// interfaces. Linking the tables links the packages: the cuda table is what
// registers the CUDA device in every interpreter, as importing
// github.com/goaccel/goaccel/cuda does in a compiled program.
//
//	i := interp.New(interp.Options{})
//	_ = i.Use(symbols.Symbols) // cells can import "github.com/goaccel/goaccel/tensors", …
//
// The one list of packages is packages.txt. After editing it, or after a
// listed package's exported API changes, regenerate:
//
//	go generate ./kernel/internal/interpreter/symbols
//
// TestSymbolsAreCurrent fails when a table is stale and
// TestEveryUserFacingPackageIsListed when a user-facing package is missing.
//
// Files:
//   - github_com-*.go, gonum_org-*.go: the generated tables, one per listed
//     package (`yaegi extract` output; do not edit).
//   - packages.txt: the import paths cells can import, one a line (embedded:
//     Packages returns them).
//   - symbols.go: Symbols, the map the generated files fill, and Packages.
package symbols

//go:generate go run ./gen -list packages.txt -dir .
