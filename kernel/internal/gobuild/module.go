package gobuild

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

// Module is the goaccel a generated program builds against.
type Module struct {
	// Dir is goaccel's source: a checkout, or the module cache's copy of a
	// released version.
	Dir string
	// Version is the released version, "" for a checkout.
	Version string
	// GoVersion is the go line of goaccel's go.mod.
	GoVersion string
}

// FindModule finds the source goaccel was built from: $GOACCEL_SOURCE, else
// the folder this file was compiled from (a checkout's, or the module
// cache's for `go install …@version`), else the module cache's copy of the
// version in the binary's build information.
func FindModule() (Module, error) {
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
		// This file is in goaccel's source: the module's root is the nearest
		// folder above it whose go.mod is goaccel's.
		for root := filepath.Dir(file); root != filepath.Dir(root); root = filepath.Dir(root) {
			m, err := moduleAt(root, version)
			if err != nil {
				continue
			}
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
	return Module{}, fmt.Errorf("cannot find goaccel's source to build against: set %s to a goaccel checkout "+
		"(a binary built with -trimpath does not remember where its source was)", EnvSource)
}

// moduleAt checks that dir holds goaccel's go.mod.
func moduleAt(dir, version string) (Module, error) {
	f, err := readGoMod(dir)
	if err != nil {
		return Module{}, err
	}
	if f.module != modulePath {
		return Module{}, fmt.Errorf("%s is module %q, not %s", dir, f.module, modulePath)
	}
	if f.goVersion == "" {
		return Module{}, errors.New(dir + "/go.mod has no go line")
	}
	return Module{Dir: dir, Version: version, GoVersion: f.goVersion}, nil
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

// noVersion is the version a go.mod requires of a module it replaces with a
// folder.
const noVersion = "v0.0.0-00010101000000-000000000000"

// Require is a module a program needs besides goaccel.
type Require struct {
	// Path is the module path.
	Path string
	// Version is the version required ("" for a local module).
	Version string
	// Dir, when set, is a local copy of the module the build uses instead
	// (a replace directive), as `go work use` would.
	Dir string
}

func (r Require) version() string {
	if r.Version == "" {
		return noVersion
	}
	return r.Version
}

// GoTool finds the go command, or says how to get one.
func GoTool() (string, error) {
	path, err := exec.LookPath("go")
	if err != nil {
		return "", errors.New("no `go` command is on this kernel's PATH, and this needs the Go toolchain: " +
			"install Go (https://go.dev/dl/) and restart the kernel")
	}
	return path, nil
}

// Env is the environment of the go commands that build a generated
// program: the process's (GOPROXY, GOPRIVATE, GOFLAGS, … apply), outside
// any workspace, with -mod=mod added to GOFLAGS so that the program's
// go.mod and go.sum are completed as the build needs.
func Env() []string {
	flags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -mod=mod")
	return append(os.Environ(), "GOWORK=off", "GOFLAGS="+flags)
}
