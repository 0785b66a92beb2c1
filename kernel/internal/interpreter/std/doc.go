// Package std holds the yaegi symbol tables of the standard library of the
// Go toolchain goaccel is built with (go1.26): every package of `go list
// std` but internal ones, less the four packages.txt names with the reason
// (unsafe is the interpreter's own). Generic functions and types, which a
// table cannot hold, come from interpreted sources
// (kernel/internal/interpreter/stdgeneric).
//
//	i := interp.New(interp.Options{})
//	_ = i.Use(std.Symbols) // cells can import "strings", "iter", "crypto/hkdf", …
//
// The tables are regenerated with the toolchain, after a Go upgrade:
//
//	go generate ./kernel/internal/interpreter/std
//
// TestTablesAreTheToolchains fails when the toolchain's standard library has
// a package without a table, or the tables were made by another Go version.
//
// Files:
//   - go_*.go: the generated tables, one per package (`yaegi extract`
//     output, written by ./gen; do not edit), or one per platform
//     (go_syscall_GOOS_GOARCH.go) for a package whose table differs between
//     linux/amd64, linux/arm64, darwin/amd64 and darwin/arm64: syscall, as
//     yaegi's own stdlib/syscall is generated per platform.
//   - packages.txt: the packages with a table, and those without and why
//     (written by ./gen; embedded: Packages returns them).
//   - maptypes.go: MapTypes, the interfaces to wrap interpreted values in for
//     the compiled functions that look for them (json.Marshal, fmt.Scan).
//   - restricted.go: os.Exit, os.FindProcess and log's Fatal functions for
//     interpreted code: they end the evaluation, not the process.
//   - std.go: Symbols, the map the generated files fill, and Packages.
//
//go:generate go run ./gen -dir .
package std
