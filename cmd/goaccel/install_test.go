package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestInstallRegistersThisBinaryInJupyterDataDir(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", dir)
	if code := runInstall(nil); code != 0 {
		t.Fatalf("runInstall exit status %d", code)
	}
	b, err := os.ReadFile(filepath.Join(dir, "kernels", "goaccel", "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Argv []string `json:"argv"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	self, _ := os.Executable()
	self, _ = filepath.EvalSymlinks(self)
	if len(spec.Argv) != 3 || spec.Argv[0] != self || spec.Argv[1] != "kernel" {
		t.Fatalf("argv = %v, want [%s kernel {connection_file}]", spec.Argv, self)
	}
}

func TestInstallPrefixAndBadArguments(t *testing.T) {
	prefix := t.TempDir()
	if code := runInstall([]string{"--prefix", prefix}); code != 0 {
		t.Fatalf("--prefix: exit status %d", code)
	}
	if _, err := os.Stat(filepath.Join(prefix, "share", "jupyter", "kernels", "goaccel", "kernel.json")); err != nil {
		t.Fatal(err)
	}
	if code := runInstall([]string{"extra"}); code == 0 {
		t.Fatal("a stray argument must fail")
	}
}

func TestKernelNeedsAConnectionFile(t *testing.T) {
	if code := runKernel(nil); code == 0 {
		t.Fatal("goaccel kernel without a connection file must fail")
	}
	if code := runKernel([]string{filepath.Join(t.TempDir(), "missing.json")}); code == 0 {
		t.Fatal("a missing connection file must fail")
	}
}
