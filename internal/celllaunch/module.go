package celllaunch

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// modulePath is goaccel's module.
const modulePath = "github.com/goaccel/goaccel"

// EnvSource names a goaccel source tree to build workers and exported
// programs against, overriding the one goaccel finds itself.
const EnvSource = "GOACCEL_SOURCE"

// goaccelModule is the goaccel a generated program builds against.
type goaccelModule struct {
	// Dir is goaccel's source: a checkout, or the module cache's copy of a
	// released version.
	Dir string
	// Version is the released version, "" for a checkout.
	Version string
	// GoVersion is the go line of goaccel's go.mod.
	GoVersion string
}

// findModule finds the source goaccel was built from: $GOACCEL_SOURCE, else
// the folder this file was compiled from (a checkout's, or the module
// cache's for `go install …@version`), else the module cache's copy of the
// version in the binary's build information.
func findModule() (goaccelModule, error) {
	if dir := os.Getenv(EnvSource); dir != "" {
		return moduleAt(dir, "")
	}
	version := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == modulePath && bi.Main.Version != "(devel)" && !strings.Contains(bi.Main.Version, "+dirty") {
			version = bi.Main.Version
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		root := filepath.Dir(filepath.Dir(filepath.Dir(file))) // …/internal/celllaunch/module.go
		if m, err := moduleAt(root, version); err == nil {
			if !strings.Contains(root, "@") {
				m.Version = "" // a checkout, whatever version the build stamped
			}
			return m, nil
		}
	}
	if version != "" {
		if cache := moduleCache(); cache != "" {
			if m, err := moduleAt(filepath.Join(cache, modulePath+"@"+version), version); err == nil {
				return m, nil
			}
		}
	}
	return goaccelModule{}, fmt.Errorf("cannot find goaccel's source to build against: set %s to a goaccel checkout "+
		"(a binary built with -trimpath does not remember where its source was)", EnvSource)
}

// moduleAt checks that dir holds goaccel's go.mod.
func moduleAt(dir, version string) (goaccelModule, error) {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return goaccelModule{}, fmt.Errorf("%s has no go.mod: %w", dir, err)
	}
	m := goaccelModule{Dir: dir, Version: version}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 2 && f[0] == "module" && f[1] != modulePath:
			return goaccelModule{}, fmt.Errorf("%s is module %s, not %s", dir, f[1], modulePath)
		case len(f) == 2 && f[0] == "go":
			m.GoVersion = f[1]
		}
	}
	if m.GoVersion == "" {
		return goaccelModule{}, errors.New(dir + "/go.mod has no go line")
	}
	return m, nil
}

// moduleCache is GOMODCACHE as the go command would choose it.
func moduleCache() string {
	if c := os.Getenv("GOMODCACHE"); c != "" {
		return c
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		gopath = filepath.Join(home, "go")
	}
	return filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "pkg", "mod")
}

// goMod is the go.mod of a program built against m. local makes it use
// m.Dir (a replace directive) even for a released version.
func (m goaccelModule) goMod(module, purpose string, local bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s, written by goaccel.\nmodule %s\n\ngo %s\n\n", purpose, module, m.GoVersion)
	if m.Version != "" && !local {
		fmt.Fprintf(&b, "require %s %s\n", modulePath, m.Version)
		return b.String()
	}
	fmt.Fprintf(&b, "require %s v0.0.0-00010101000000-000000000000\n\n", modulePath)
	if m.Version == "" {
		b.WriteString("// goaccel was built from this checkout; on another machine, point this at a\n// checkout there or require a released version instead.\n")
	}
	fmt.Fprintf(&b, "replace %s => %s\n", modulePath, m.Dir)
	return b.String()
}

// goSum is goaccel's go.sum, which holds the checksums of every module a
// program built against it needs.
func (m goaccelModule) goSum() []byte {
	b, _ := os.ReadFile(filepath.Join(m.Dir, "go.sum"))
	return b
}

// goTool finds the go command, or says how to get one.
func goTool() (string, error) {
	path, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("--compile builds the workers with the Go toolchain, and no `go` command is on this kernel's PATH: " +
			"install Go (https://go.dev/dl/) and restart the kernel, or launch without --compile (interpreted workers)")
	}
	return path, nil
}
