package derive

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/gobuild"
)

// Spec describes a derived executor.
type Spec struct {
	// Base is the goaccel binary it derives from: it runs every command
	// but the executor's. It is not part of the build (a rebuilt goaccel
	// with the same content shares its builds): the derived executor gets
	// it as its argument, and passes it on in EnvBase.
	Base string `json:"-"`
	// Identity is Base's gobuild.Identity, which keys the builds.
	Identity string `json:"identity"`
	// Packages are the import paths it adds to goaccel's tables.
	Packages []string `json:"packages,omitempty"`
	// Modules are the versions and local folders the session chose
	// (versions canonical: Resolve them first).
	Modules []gobuild.Require `json:"modules,omitempty"`
}

// With returns s extended by packages and modules (a module replaces the
// one of the same path), sorted so that equal sets give equal specs.
func (s Spec) With(packages []string, modules []gobuild.Require) Spec {
	out := Spec{Base: s.Base, Identity: s.Identity}
	out.Packages = append(slices.Clone(s.Packages), packages...)
	slices.Sort(out.Packages)
	out.Packages = slices.Compact(out.Packages)
	byPath := map[string]gobuild.Require{}
	for _, m := range append(slices.Clone(s.Modules), modules...) {
		byPath[m.Path] = m
	}
	for _, m := range byPath {
		out.Modules = append(out.Modules, m)
	}
	slices.SortFunc(out.Modules, func(a, b gobuild.Require) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Has reports whether s's executor has package p.
func (s Spec) Has(p string) bool { return slices.Contains(s.Packages, p) }

// LocalModule reads the module at dir for `%go mod use DIR`: its module
// path from go.mod, and dir made absolute.
func LocalModule(dir string) (gobuild.Require, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return gobuild.Require{}, err
	}
	f, err := os.Open(filepath.Join(abs, "go.mod"))
	if err != nil {
		return gobuild.Require{}, fmt.Errorf("%s is not a Go module (no go.mod): %w; `go mod init PATH` there makes it one", dir, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return gobuild.Require{Path: strings.Trim(fields[1], `"`), Dir: abs}, nil
		}
	}
	return gobuild.Require{}, fmt.Errorf("%s/go.mod has no module line", dir)
}

// ParsePin reads `%go get MODULE@VERSION`'s argument.
func ParsePin(arg string) (gobuild.Require, error) {
	path, version, ok := strings.Cut(arg, "@")
	if !ok || path == "" || version == "" {
		return gobuild.Require{}, fmt.Errorf("%q: want MODULE@VERSION, e.g. github.com/google/uuid@v1.6.0 (a version, latest, or a commit)", arg)
	}
	return gobuild.Require{Path: path, Version: version}, nil
}

// ExecutorCommand is the command an executor binary serves a session with
// (kernel/process.ExecutorCommand).
const ExecutorCommand = "__executor"

// EnvBase names the goaccel binary a derived executor runs every command
// but the executor's with (processes it starts inherit it).
const EnvBase = "GOACCEL_BASE"

// Command is the command line that serves a session with the derived
// executor bin, derived from spec.Base.
func (s Spec) Command(bin string) []string { return []string{bin, ExecutorCommand, s.Base} }

// Resolve asks the Go toolchain (GOPROXY, GOPRIVATE and GOFLAGS apply) for
// pin's module at its version, returning the canonical version ("latest"
// and commits resolve to one).
func Resolve(ctx context.Context, pin gobuild.Require) (gobuild.Require, error) {
	gotool, err := gobuild.GoTool()
	if err != nil {
		return pin, err
	}
	tmp, err := os.MkdirTemp("", "goaccel-resolve-")
	if err != nil {
		return pin, err
	}
	defer os.RemoveAll(tmp)
	cmd := exec.CommandContext(ctx, gotool, "list", "-m", "-json", pin.Path+"@"+pin.Version)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GO111MODULE=on")
	out, err := cmd.Output()
	var m struct {
		Path, Version string
		Error         *struct{ Err string }
	}
	if jerr := json.Unmarshal(out, &m); err != nil || jerr != nil || m.Error != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		if m.Error != nil {
			msg = m.Error.Err
		}
		return pin, fmt.Errorf("module %s@%s cannot be fetched (%s): check the module path and version "+
			"(GOPROXY, GOPRIVATE and GOFLAGS apply, as for go get)", pin.Path, pin.Version, msg)
	}
	pin.Version = m.Version
	return pin, nil
}
