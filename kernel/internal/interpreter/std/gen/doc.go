// Command gen writes the yaegi symbol tables of the standard library of the
// Go toolchain that runs it (kernel/internal/interpreter/std), one file per
// package, or one per platform where the platforms the kernel builds for
// differ (syscall), and packages.txt. go generate runs it in that package
// (several minutes: each platform's standard library is type-checked from
// source):
//
//	go run ./gen -dir .
//
// Files:
//   - main.go: the platforms, the packages (`go list std` less internal
//     ones and those skipped, with the reason), their extraction with
//     yaegi's extract package for each platform, the removal of stale tables
//     and packages.txt.
package main
