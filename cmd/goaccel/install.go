package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/goaccel/goaccel/kernel/kernelspec"
)

// runInstall is `goaccel install [--user] [--prefix P]`.
func runInstall(args []string) int {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	prefix := fs.String("prefix", "", "install into `P`/share/jupyter/kernels (like jupyter kernelspec install --prefix)")
	user := fs.Bool("user", true, "install for this user ($JUPYTER_DATA_DIR, else ~/.local/share/jupyter, or ~/Library/Jupyter on macOS); --user=false installs system-wide in "+kernelspec.SystemDataDir)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: goaccel install [--user] [--prefix P]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("install takes no arguments, got %q", fs.Args()))
	}
	self, err := os.Executable()
	if err != nil {
		return fail(fmt.Errorf("find the goaccel binary: %w", err))
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	dir, err := kernelspec.DataDir(kernelspec.Target{Prefix: *prefix, User: *user})
	if err != nil {
		return fail(err)
	}
	path, err := kernelspec.Install(dir, self)
	if err != nil {
		return fail(err)
	}
	fmt.Printf("installed kernelspec %q (Go (goaccel)) in %s\n", kernelspec.Name, filepath.Dir(path))
	return 0
}
