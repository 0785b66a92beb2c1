package lib_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	"github.com/goaccel/goaccel/cuda/internal/lib"
)

// TestToolkitFoldersAreSortedByVersionNumber: cuda-13.0 before cuda-12.10 before cuda-12.4
// before cuda-9.2 (not in the order of their names), the unversioned link first.
func TestToolkitFoldersAreSortedByVersionNumber(t *testing.T) {
	globs := map[string][]string{"/usr/local/cuda*/lib64": {"/usr/local/cuda-9.2/lib64", "/usr/local/cuda-12.4/lib64", "/usr/local/cuda/lib64",
		"/usr/local/cuda-13.0/lib64", "/usr/local/cuda-12.10/lib64"}}
	f := &lib.Finder{Getenv: func(string) string { return "" }, Glob: func(p string) ([]string, error) { return globs[p], nil }}
	got := f.Dirs()[:5]
	want := []string{"/usr/local/cuda/lib64", "/usr/local/cuda-13.0/lib64", "/usr/local/cuda-12.10/lib64", "/usr/local/cuda-12.4/lib64", "/usr/local/cuda-9.2/lib64"}
	if !slices.Equal(got, want) {
		t.Fatalf("toolkit folders\n got %q\nwant %q", got, want)
	}
}

// TestDirsSearchTheSitePackagesOfThePython3OnPATH: a virtual environment that is first on PATH
// but not activated (no $VIRTUAL_ENV, as when a job runs its venv's python3) still has its
// pip-installed CUDA libraries found, through the python3's sys.prefix.
func TestDirsSearchTheSitePackagesOfThePython3OnPATH(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\necho /opt/venvs/gpu\n"
	if err := os.WriteFile(filepath.Join(bin, "python3"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	globs := map[string][]string{
		"/opt/venvs/gpu/lib/python3*/site-packages":                {"/opt/venvs/gpu/lib/python3.12/site-packages"},
		"/opt/venvs/gpu/lib/python3.12/site-packages/nvidia/*/lib": {"/opt/venvs/gpu/lib/python3.12/site-packages/nvidia/cu13/lib"},
	}
	f := &lib.Finder{Getenv: func(k string) string {
		if k == "PATH" {
			return "/nonexistent:" + bin
		}
		return ""
	}, Glob: func(p string) ([]string, error) { return globs[p], nil }}
	if got := f.Dirs(); !slices.Contains(got, "/opt/venvs/gpu/lib/python3.12/site-packages/nvidia/cu13/lib") {
		t.Fatalf("Dirs = %q: the python3 on PATH's site-packages is not searched", got)
	}
}

func TestDirsSearchOverridesToolkitsDriverThenPipWheels(t *testing.T) {
	env := map[string]string{
		lib.EnvPath:       "/opt/mine",
		"LD_LIBRARY_PATH": "/ld/a:/ld/b",
		"VIRTUAL_ENV":     "/venv",
		"HOME":            "/home/u",
	}
	globs := map[string][]string{
		"/usr/local/cuda*/lib64":                               {"/usr/local/cuda-12.4/lib64", "/usr/local/cuda-13.0/lib64", "/usr/local/cuda/lib64"},
		"/venv/lib/python3*/site-packages":                     {"/venv/lib/python3.12/site-packages"},
		"/venv/lib/python3.12/site-packages/nvidia/*/lib":      {"/venv/lib/python3.12/site-packages/nvidia/nccl/lib", "/venv/lib/python3.12/site-packages/nvidia/cu13/lib"},
		"/usr/local/lib/python3*/dist-packages":                {"/usr/local/lib/python3.12/dist-packages"},
		"/usr/local/lib/python3.12/dist-packages/nvidia/*/lib": {"/usr/local/lib/python3.12/dist-packages/nvidia/cublas/lib"},
	}
	f := &lib.Finder{Getenv: func(k string) string { return env[k] }, Glob: func(p string) ([]string, error) { return globs[p], nil }}
	got := f.Dirs()
	want := []string{"/opt/mine", "/ld/a", "/ld/b", "/usr/local/cuda/lib64", "/usr/local/cuda-13.0/lib64", "/usr/local/cuda-12.4/lib64",
		"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib/wsl/lib", "/usr/local/nvidia/lib64", "/usr/lib/x86_64-linux-gnu/nvidia/current",
		"/venv/lib/python3.12/site-packages/nvidia/cu13/lib", "/venv/lib/python3.12/site-packages/nvidia/nccl/lib",
		"/usr/local/lib/python3.12/dist-packages/nvidia/cublas/lib"}
	if !slices.Equal(got, want) {
		t.Fatalf("Dirs:\n got %q\nwant %q", got, want)
	}
}

// touch creates empty files standing for libraries.
func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOpenPrefersTheNewestSonameAndItsFoldersDependencies(t *testing.T) {
	root := t.TempDir()
	old, pip := filepath.Join(root, "toolkit12"), filepath.Join(root, "nvidia", "cu13", "lib")
	touch(t, old, "libcublas.so.12", "libcublasLt.so.12")
	touch(t, pip, "libcublas.so.13", "libcublasLt.so.13")
	var opened []string
	f := &lib.Finder{
		Getenv: func(k string) string {
			if k == lib.EnvPath {
				return old + ":" + pip
			}
			return ""
		},
		Glob: func(string) ([]string, error) { return nil, nil },
		Dlopen: func(p string) (uintptr, error) {
			opened = append(opened, p)
			return 1, nil
		},
	}
	l, err := f.Open(lib.CUBLAS)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(pip, "libcublasLt.so.13"), filepath.Join(pip, "libcublas.so.13")}
	if l.Path != want[1] || !slices.Equal(opened, want) {
		t.Fatalf("opened %q, library %s; want %q (CUDA 13 first, cuBLASLt from the same folder first)", opened, l.Path, want)
	}
}

func TestAMissingLibraryIsAnErrorThatSaysWhereItLooked(t *testing.T) {
	dir := t.TempDir()
	f := &lib.Finder{Getenv: fakelib.Env(dir), Glob: func(string) ([]string, error) { return nil, nil }}
	_, err := f.Open(lib.NCCL)
	if !errors.Is(err, lib.ErrNotFound) {
		t.Fatalf("error %v does not wrap ErrNotFound", err)
	}
	for _, want := range []string{"NCCL", "libnccl.so.2", dir, lib.EnvPath} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestMissingSymbolsAreErrorsNotPanics(t *testing.T) {
	dir := t.TempDir()
	if err := fakelib.Build(dir); err != nil {
		t.Fatal(err)
	}
	l, err := (&lib.Finder{Getenv: fakelib.Env(dir)}).Open(lib.Driver)
	if err != nil {
		t.Fatal(err)
	}
	var ok struct {
		Init uintptr `sym:"cuInit"`
		Alt  uintptr `sym:"cuNoSuchThing_v9,cuMemAlloc_v2"`
		Opt  uintptr `sym:"cuNotThere,optional"`
	}
	if err := l.Bind(&ok); err != nil || ok.Init == 0 || ok.Alt == 0 || ok.Opt != 0 {
		t.Fatalf("Bind = %v, fields %+v; want both found and the optional one 0", err, ok)
	}
	var bad struct {
		Init    uintptr `sym:"cuInit"`
		Missing uintptr `sym:"cuFutureCall"`
	}
	err = l.Bind(&bad)
	if err == nil || !strings.Contains(err.Error(), "cuFutureCall") || !strings.Contains(err.Error(), "too old") {
		t.Fatalf("Bind with a missing symbol = %v, want an error naming cuFutureCall", err)
	}
}
