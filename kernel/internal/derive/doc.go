// Package derive builds derived executors: executor binaries for sessions
// whose cells import packages that goaccel's symbol tables lack (a module
// from the Go module proxy, the user's own local module). A derived
// executor is goaccel's executor (kernel/process.RunDerivedExecutor is its main)
// linked with those packages, compiled, and their yaegi symbol tables,
// generated as `yaegi extract` would: cells call the packages' compiled
// code.
//
// Build writes a small module (go.mod requiring goaccel, the packages'
// modules at the versions `%go get` pinned and the folders `%go mod use`
// named), lets `go mod tidy` resolve the rest through GOPROXY, extracts the
// symbol tables (ExtractCommand, run by the executor binary in the build's
// folder) and runs `go build`. Builds are cached (kernel/internal/gobuild) by
// the set of packages, the modules and goaccel's own identity: a second
// session with the same imports starts without a build.
//
//	spec := derive.Spec{Base: goaccel, Identity: gobuild.Identity()}.With([]string{"github.com/google/uuid"}, nil)
//	bin, how, err := derive.Build(ctx, spec, os.Stdout)
//	cmd := spec.Command(bin) // bin __executor goaccel: serves the session with uuid importable
//
// Files:
//   - build.go: ExtractCommand and Build: the module, its main.go (calling
//     process.RunDerivedExecutor), `go mod tidy` (requireModules: offline, a
//     tidy that lacks the modules of the dependencies' tests falls back to
//     `go mod tidy -e` and `go list -deps`), the extraction and `go build`,
//     cached by content.
//   - build_test.go: requireModules against a module cache that lacks a
//     dependency's test-only module, as a fresh machine's does.
//   - extract.go: Extract, the symbol tables of a build's packages written
//     as `yaegi extract` would.
//   - spec.go: Spec (With, Has, Command), ExecutorCommand, EnvBase, the
//     `%go mod use` and `%go get` arguments (LocalModule, ParsePin) and
//     Resolve.
package derive
