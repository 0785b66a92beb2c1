// Package symbols holds the generated `yaegi extract` tables that make
// goaccel's user-facing packages (and gonum/plot) importable from notebook
// cells, interface wrappers included so that cell types can implement our
// interfaces.
//
// The one list of packages is packages.txt. After editing it, or after a
// listed package's exported API changes, regenerate:
//
//	go generate ./internal/symbols
//
// TestSymbolsAreCurrent fails when a table is stale and
// TestEveryUserFacingPackageIsListed when a user-facing package is missing.
package symbols

//go:generate go run ./gen -list packages.txt -dir .
