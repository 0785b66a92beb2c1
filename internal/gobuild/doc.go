// Package gobuild builds Go programs against goaccel with the Go toolchain,
// for the compiled workers of `%accelerate launch --compile`, the programs
// `%accelerate export` writes and the derived executors that cells importing
// new packages run in.
//
// FindModule finds the goaccel source the running binary was built from (a
// checkout, or the module cache's copy of a release); Module.GoMod writes the
// go.mod of a program built against it, with the session's own module
// requirements (Require). A Cache is a folder of builds addressed by the
// hash of what went into them: a second build of the same inputs by the same
// goaccel is found, not built.
//
//	m, err := gobuild.FindModule()
//	c, err := gobuild.OpenCache("workers")
//	dir, err := c.Build(gobuild.Key(files), func(tmp string) error { /* go build in tmp */ })
package gobuild
