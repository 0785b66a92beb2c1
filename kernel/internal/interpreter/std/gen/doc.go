// Command gen writes the yaegi symbol tables of the standard library of the
// Go toolchain that runs it (kernel/internal/interpreter/std), one file per
// package, and packages.txt. go generate runs it in that package:
//
//	go run ./gen -dir .
//
// Files:
//   - main.go: the packages (`go list std` less internal ones and those
//     skipped, with the reason), their extraction with yaegi's extract
//     package, the removal of stale tables and packages.txt.
package main
