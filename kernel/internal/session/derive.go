package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/goaccel/goaccel/kernel/internal/derive"
	"github.com/goaccel/goaccel/kernel/internal/gobuild"
)

// switchFor answers a cell that imports packages no symbol table has: it
// builds (or finds) a derived executor that has them, saves the session
// with the values that can cross, and asks the kernel to move the session
// there and run the cell again (Result.Switch).
func (s *Session) switchFor(ctx context.Context, missing []string) Result {
	slices.Sort(missing)
	quoted := make([]string, len(missing))
	for i, p := range missing {
		quoted[i] = strconv.Quote(p)
	}
	what := strings.Join(quoted, ", ")
	if len(missing) == 0 {
		what = "the session's modules"
	}
	if s.opts.Executor.Base == "" || s.opts.StateFile == "" {
		return errorResult("ImportError", fmt.Sprintf("cannot import %s: this session can import the standard library and the packages compiled into goaccel "+
			"(in a notebook, the kernel builds an executor with any other package)", what))
	}
	spec := s.opts.Executor.With(missing, s.modules)
	bin, how, err := derive.Build(ctx, spec, s.out)
	if err != nil {
		if ctx.Err() != nil {
			return interrupted()
		}
		return errorResult("ImportError", fmt.Sprintf("cannot import %s: %v", what, err))
	}
	if sameFile(bin) {
		return Result{} // this executor is that build (a cell run again after a switch)
	}
	fmt.Fprintf(s.errOut, "executor with %s: %s; the session moves to it\n", strings.Join(spec.Packages, ", "), how)
	if err := s.saveState(true); err != nil {
		return errorResult("ImportError", fmt.Sprintf("cannot import %s: %v", what, err))
	}
	return Result{Switch: spec.Command(bin)}
}

// GoGet pins MODULE@VERSION for the cells' imports (magics.Modules): the
// version is resolved now (a module that does not exist is an error); an
// executor that already has packages moves to one built with the pin.
func (s *Session) GoGet(ctx context.Context, arg string) (any, error) {
	pin, err := derive.ParsePin(arg)
	if err != nil {
		return nil, err
	}
	if pin, err = derive.Resolve(ctx, pin); err != nil {
		return nil, err
	}
	if need := linkedVersion(pin.Path); need != "" && gobuild.Older(pin.Version, need) {
		fmt.Fprintf(s.errOut, "note: goaccel itself needs %s %s; Go's minimal version selection builds with that, not %s\n", pin.Path, need, pin.Version)
	}
	return s.useModule(ctx, pin.Path+" "+pin.Version, pin)
}

// GoModUse makes cells import the packages of the local module at dir
// (magics.Modules), as `go work use` would: edits to it rebuild the
// executor when a cell next imports a package the executor lacks, or runs
// %go mod use again.
func (s *Session) GoModUse(ctx context.Context, dir string) (any, error) {
	m, err := derive.LocalModule(dir)
	if err != nil {
		return nil, err
	}
	return s.useModule(ctx, m.Path+" => "+m.Dir, m)
}

// useModule adds m to the session's modules; an executor with packages is
// rebuilt with it at once.
func (s *Session) useModule(ctx context.Context, what string, m gobuild.Require) (any, error) {
	s.modules = slices.DeleteFunc(s.modules, func(r gobuild.Require) bool { return r.Path == m.Path })
	s.modules = append(s.modules, m)
	fmt.Fprintf(s.out, "using %s\n", what)
	if len(s.opts.Executor.Packages) == 0 {
		return nil, nil // the first import builds with it
	}
	if !slices.ContainsFunc(s.opts.Executor.Packages, func(p string) bool { return p == m.Path || strings.HasPrefix(p, m.Path+"/") }) {
		return nil, nil // the executor has none of its packages: a cell importing one builds with it
	}
	r := s.switchFor(ctx, nil)
	if r.Error != nil {
		return nil, errors.New(r.Error.Evalue)
	}
	return r, nil
}

// GoList describes the packages cells import beyond goaccel's and the
// modules the session chose (magics.Modules).
func (s *Session) GoList() []string {
	spec := s.opts.Executor
	if len(spec.Packages) == 0 && len(s.modules) == 0 {
		return []string{"cells import the standard library and goaccel's packages; importing any other package builds an executor with it"}
	}
	versions := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			v := d.Version
			if d.Replace != nil {
				v = "=> " + d.Replace.Path
			}
			versions[d.Path] = v
		}
	}
	var out []string
	for _, p := range spec.Packages {
		mod, v := "", ""
		for path, ver := range versions {
			if (p == path || strings.HasPrefix(p, path+"/")) && len(path) > len(mod) {
				mod, v = path, ver
			}
		}
		if mod == "" {
			out = append(out, "package "+p)
		} else {
			out = append(out, fmt.Sprintf("package %s (module %s %s)", p, mod, v))
		}
	}
	for _, m := range s.modules {
		switch {
		case m.Dir != "":
			out = append(out, fmt.Sprintf("module %s => %s (%%go mod use)", m.Path, m.Dir))
		default:
			out = append(out, fmt.Sprintf("module %s %s (%%go get)", m.Path, m.Version))
		}
	}
	return out
}

// linkedVersion is the version of module path linked into this executor,
// "" when it has none.
func linkedVersion(path string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range bi.Deps {
		if d.Path == path && d.Replace == nil {
			return d.Version
		}
	}
	return ""
}

// sameFile reports whether bin is this process's executable.
func sameFile(bin string) bool {
	self, err := os.Executable()
	if err != nil {
		return false
	}
	a, errA := os.Stat(self)
	b, errB := os.Stat(bin)
	return errA == nil && errB == nil && os.SameFile(a, b)
}
