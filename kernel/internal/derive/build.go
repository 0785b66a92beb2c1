package derive

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/goaccel/goaccel/kernel/internal/gobuild"
)

// ExtractCommand is the executor binary's hidden command that writes the
// symbol tables of a build's packages, run in the build's folder (see
// Extract).
const ExtractCommand = "__extract"

// binary is the derived executor's file in its build folder.
const binary = "executor"

// keepBuilds is how many derived executors the cache keeps (each is tens of
// MB); the least recently used go first.
const keepBuilds = 8

// modulePath is the derived executor's module, named under goaccel's path
// (its main calls kernel/process.RunDerivedExecutor).
const modulePath = "github.com/goaccel/goaccel/derived_executor"

// Build returns the derived executor of spec: from the cache when one was
// built for the same packages, modules and goaccel, else built now, with a
// progress line on progress. how says which ("cached build" or "built in
// 12.3 s").
func Build(ctx context.Context, spec Spec, progress io.Writer) (bin, how string, err error) {
	m, err := gobuild.FindModule()
	if err != nil {
		return "", "", err
	}
	var local []gobuild.Require
	for _, r := range spec.Modules {
		if r.Dir != "" {
			local = append(local, r)
		}
	}
	specJSON, err := json.Marshal(spec)
	if err != nil {
		return "", "", err
	}
	goMod, err := m.GoMod(modulePath, "A derived executor of a goaccel session", spec.Modules)
	if err != nil {
		return "", "", err
	}
	files := map[string][]byte{
		"go.mod":     []byte(goMod),
		"go.sum":     m.GoSum(),
		"main.go":    []byte(mainSource(string(specJSON))),
		"imports.go": []byte(importsSource(spec.Packages)),
		// Local modules are part of the build: an edit rebuilds.
		"local.txt": []byte(fingerprint(local)),
	}
	cache, err := gobuild.OpenCache("executors", keepBuilds)
	if err != nil {
		return "", "", err
	}
	key := gobuild.Key(spec.Identity, files)
	if dir, ok := cache.Lookup(key, binary); ok {
		return filepath.Join(dir, binary), "cached build", nil
	}
	gotool, err := gobuild.GoTool()
	if err != nil {
		return "", "", fmt.Errorf("cells importing %s: %w", strings.Join(spec.Packages, ", "), err)
	}
	fmt.Fprintf(progress, "Building an executor with %s (go build, once for these packages: later sessions reuse it)...\n", strings.Join(spec.Packages, ", "))
	start := time.Now()
	dir, err := cache.Build(key, func(tmp string) error {
		if err := gobuild.WriteFiles(tmp, files); err != nil {
			return err
		}
		run := func(what string, name string, args ...string) error {
			out, err := gobuild.Run(ctx, tmp, name, args...)
			if err != nil && ctx.Err() == nil {
				return fmt.Errorf("%s: %w\n%s", what, err, strings.TrimSpace(string(out)))
			}
			return err
		}
		if err := requireModules(run, gotool, spec.Packages); err != nil {
			return explain(err, spec.Packages)
		}
		if err := run("generate the packages' symbol tables", spec.Base, append([]string{ExtractCommand}, spec.Packages...)...); err != nil {
			return err
		}
		if err := run("go build", gotool, "build", "-o", binary, "."); err != nil {
			return fmt.Errorf("a package of %s does not build with goaccel's executor: %w", strings.Join(spec.Packages, ", "), err)
		}
		return nil
	})
	if err != nil {
		return "", "", err
	}
	return filepath.Join(dir, binary), fmt.Sprintf("built in %.1f s", time.Since(start).Seconds()), nil
}

// requireModules writes the build's module requirements: go mod tidy, or where tidy fails, go mod
// tidy -e and then a check that the packages and everything they import load. Tidy also loads
// the tests of every dependency, whose modules a module cache that only built goaccel lacks
// (a fresh machine without network: GOPROXY=off), while the executor needs only the packages'
// own imports; a package no module provides still fails, in go list.
func requireModules(run func(what, name string, args ...string) error, gotool string, packages []string) error {
	if run("resolve the packages' modules (go mod tidy)", gotool, "mod", "tidy") == nil {
		return nil
	}
	if err := run("resolve the packages' modules (go mod tidy -e)", gotool, "mod", "tidy", "-e"); err != nil {
		return err
	}
	return run("load the packages (go list -deps)", gotool, append([]string{"list", "-deps"}, packages...)...)
}

// explain turns go mod tidy's failure (a package no module provides, a
// module that does not build its go.mod) into what to do.
func explain(err error, packages []string) error {
	var culprits []string
	for _, p := range packages {
		if strings.Contains(err.Error(), "\t"+p+": ") || strings.Contains(err.Error(), " "+p+": ") {
			culprits = append(culprits, p)
		}
	}
	if len(culprits) > 0 {
		packages = culprits
	}
	return fmt.Errorf("the Go toolchain cannot find a module providing %s (check the import path; GOPROXY, GOPRIVATE and GOFLAGS apply as for go get; "+
		"`%%go get MODULE@VERSION` pins a version; `%%go mod use DIR` imports a module of your own): %w", strings.Join(packages, ", "), err)
}

// mainSource is the derived executor's main.go.
func mainSource(spec string) string {
	return `// Code generated by goaccel: the executor of a session whose cells import
// packages goaccel lacks. DO NOT EDIT.
package main

import (
	"os"
	"reflect"

	"github.com/goaccel/goaccel/kernel/process"
)

// Symbols are the yaegi symbol tables of the session's packages (the
// symbols_*.go files).
var Symbols = map[string]map[string]reflect.Value{}

func main() {
	os.Exit(process.RunDerivedExecutor(` + strconv.Quote(spec) + `, Symbols))
}
`
}

// importsSource imports the packages, so that go mod tidy finds their modules.
func importsSource(packages []string) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n")
	for _, p := range packages {
		fmt.Fprintf(&b, "\t_ %s\n", strconv.Quote(p))
	}
	b.WriteString(")\n")
	return b.String()
}

// fingerprint names every file of the local modules with its size and
// modification time.
func fingerprint(local []gobuild.Require) string {
	var b strings.Builder
	for _, r := range local {
		fmt.Fprintf(&b, "module %s %s\n", r.Path, r.Dir)
		_ = filepath.WalkDir(r.Dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && path != r.Dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if info, err := d.Info(); err == nil && !d.IsDir() {
				fmt.Fprintf(&b, "%s %d %d\n", path, info.Size(), info.ModTime().UnixNano())
			}
			return nil
		})
	}
	return b.String()
}
