// Command gen writes api.go.txt: the exported declarations of the
// generic standard packages (cmp, iter, maps, slices) of the Go toolchain
// running it, without function bodies, for go/types to check cells against
// where the symbol tables cannot hold generic functions. It is run by go
// generate in package stdgeneric:
//
//	go generate ./kernel/internal/interpreter/stdgeneric
//
// Files:
//   - main.go: the list of packages and the writer of their declarations.
package main
