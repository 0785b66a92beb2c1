// Package gobuild builds Go programs against goaccel with the Go toolchain,
// for the compiled workers of `%accelerate launch --compile`, the programs
// `%accelerate export` writes and the derived executors that cells importing
// new packages run in.
//
// FindModule finds the goaccel source the running binary was built from (a
// checkout, or the module cache's copy of a release); Module.GoMod and
// Module.GoSum write the go.mod and go.sum of a program built against it,
// with the session's own module requirements (Require): every module the
// running binary was built with, at its version, and the replace directives
// of its build, so that plain `go build` needs no network where goaccel was
// built. A Cache is a folder of builds addressed by the hash of what went
// into them and by the goaccel binary's Identity: a second build of the same
// inputs by the same goaccel is found, not built.
//
//	m, err := gobuild.FindModule()
//	gotool, err := gobuild.GoTool()
//	goMod, err := m.GoMod("example.com/w", "a worker", nil)
//	files := map[string][]byte{"go.mod": []byte(goMod), "go.sum": m.GoSum(), "main.go": src}
//	c, err := gobuild.OpenCache("workers", 16)
//	dir, err := c.Build(gobuild.Key(identity, files), func(tmp string) error {
//		if err := gobuild.WriteFiles(tmp, files); err != nil {
//			return err
//		}
//		_, err := gobuild.Run(ctx, tmp, gotool, "build", "-o", "worker", ".")
//		return err
//	})
//
// Files:
//   - cache.go: EnvCache, Cache (OpenCache, Lookup, Build, pruning to the
//     most recently used), Key and Identity.
//   - gomod.go: Module.GoMod and Module.GoSum (from goaccel's go.mod and
//     go.sum and the running binary's build information), the go.mod
//     reader, and Older, semantic versions compared.
//   - module.go: EnvSource, Module (FindModule), Require, GoTool and Env,
//     the environment of the go commands.
//   - run.go: WriteFiles and Run, a build's commands in its folder.
package gobuild
