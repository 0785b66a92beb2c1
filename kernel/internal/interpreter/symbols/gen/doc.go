// Command gen writes the yaegi symbol tables for the packages listed in a
// file, one generated file per package, and removes tables of packages no
// longer listed. It is run by go generate in
// kernel/internal/interpreter/symbols:
//
//	go run ./gen -list packages.txt -dir .
//
// Files:
//   - main.go: the flags, the extraction of each listed package (yaegi's
//     extract package) and the removal of stale generated tables.
package main
