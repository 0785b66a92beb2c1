// Package derived builds derived executors: executor binaries for sessions
// whose cells import packages that goaccel's symbol tables lack (a module
// from the Go module proxy, the user's own local module). A derived
// executor is goaccel's executor (internal/executormain) linked with those
// packages, compiled, and their yaegi symbol tables, generated as `yaegi
// extract` would: cells call the packages' compiled code.
//
// Build writes a small module (go.mod requiring goaccel, the packages'
// modules at the versions `%go get` pinned and the folders `%go mod use`
// named), lets `go mod tidy` resolve the rest through GOPROXY, extracts the
// symbol tables (ExtractCommand, run by the executor binary in the build's
// folder) and runs `go build`. Builds are cached (internal/gobuild) by the
// set of packages, the modules and goaccel's own identity: a second session
// with the same imports starts without a build.
//
//	bin, how, err := derived.Build(ctx, derived.Spec{Base: goaccel, Packages: []string{"github.com/google/uuid"}}, os.Stdout)
//	// run bin __executor, which serves the session with uuid importable
package derived
