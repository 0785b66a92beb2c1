package fakelib

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goaccel/goaccel/cuda/internal/lib"
)

// Names are the file names the library is installed under in the folder Build returns.
var Names = []string{"libcuda.so.1", "libcublas.so.13", "libcublasLt.so.13", "libnccl.so.2"}

// Build installs the fake (compiled with extra compiler flags, e.g. -DX) into dir under every
// name of Names. The first build of a set of sources compiles them with the C++ compiler ($CXX,
// else g++; tens of seconds) into the build cache ($GOACCEL_FAKECUDA_CACHE, else the user's
// cache folder); later ones copy it from there. Each folder holds its own copy, so each is a
// library of its own when loaded.
func Build(dir string, cflags ...string) error {
	lib, err := library(cflags)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(lib)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "libfakecuda.so"), b, 0o755); err != nil {
		return err
	}
	for _, n := range Names {
		if err := os.Symlink("libfakecuda.so", filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return nil
}

// Control reaches the fake's test hooks in an opened copy.
type Control struct{ log, reset, initErr, params, paramBytes uintptr }

// Open opens the fake in dir and returns its hooks.
func Open(dir string) (*Control, error) {
	h, err := purego.Dlopen(filepath.Join(dir, "libfakecuda.so"), purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, err
	}
	c := &Control{}
	for p, name := range map[*uintptr]string{&c.log: "fake_log", &c.reset: "fake_reset", &c.initErr: "fake_set_init_error", &c.params: "fake_set_launch_params", &c.paramBytes: "fake_set_param_bytes"} {
		if *p, err = purego.Dlsym(h, name); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Log returns the calls recorded since the last Reset, one per line.
func (c *Control) Log() string {
	p, _, _ := purego.SyscallN(c.log)
	s := *(**byte)(unsafe.Pointer(&p))
	var b []byte
	for i := 0; ; i++ {
		ch := *(*byte)(unsafe.Add(unsafe.Pointer(s), i))
		if ch == 0 {
			break
		}
		b = append(b, ch)
	}
	return string(b)
}

// Reset clears the log.
func (c *Control) Reset() { purego.SyscallN(c.reset) }

// SetInitError makes cuInit return code (0: success).
func (c *Control) SetInitError(code int) { purego.SyscallN(c.initErr, uintptr(code)) }

// SetLaunchParams makes cuLaunchKernel log the first 8 bytes of its first n parameters.
func (c *Control) SetLaunchParams(n int) { purego.SyscallN(c.params, uintptr(n)) }

// SetParamBytes makes cuLaunchKernel log bytes (a multiple of 8) of each parameter as decimal
// 64-bit words instead (8: one hexadecimal word).
func (c *Control) SetParamBytes(bytes int) { purego.SyscallN(c.paramBytes, uintptr(bytes)) }

// Env returns a Getenv for lib.Finder that points GOACCEL_CUDA_LIBRARY_PATH at dir and hides
// the rest of the environment.
func Env(dir string) func(string) string {
	return func(k string) string {
		if k == "GOACCEL_CUDA_LIBRARY_PATH" {
			return dir
		}
		return ""
	}
}

// Setup builds the fake into a new temporary folder (remove it when done), opens it, and points
// GOACCEL_CUDA_LIBRARY_PATH at it, so that everything loaded afterwards finds the fake: what a
// TestMain calls before any test touches CUDA.
func Setup() (dir string, c *Control, err error) {
	if dir, err = os.MkdirTemp("", "fakecuda"); err != nil {
		return "", nil, err
	}
	if err = Build(dir); err == nil {
		c, err = Open(dir)
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	os.Setenv("GOACCEL_CUDA_LIBRARY_PATH", dir)
	return dir, c, nil
}

// Load builds the fake into dir, opens its hooks, and loads it as spec through a lib.Finder that
// sees only dir: what a test of one binding needs.
func Load(dir string, spec lib.Spec) (*lib.Library, *Control, error) {
	if err := Build(dir); err != nil {
		return nil, nil, err
	}
	c, err := Open(dir)
	if err != nil {
		return nil, nil, err
	}
	l, err := (&lib.Finder{Getenv: Env(dir)}).Open(spec)
	if err != nil {
		return nil, nil, fmt.Errorf("load the fake as %s: %w", spec.Name, err)
	}
	return l, c, nil
}

// Main runs a package's tests with the fake set up (see Setup), stores its hooks in *ctl when ctl
// is not nil, removes it afterwards and exits with the tests' code: a whole TestMain.
func Main(m *testing.M, ctl **Control) {
	dir, c, err := Setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "build the fake CUDA library:", err)
		os.Exit(1)
	}
	if ctl != nil {
		*ctl = c
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
