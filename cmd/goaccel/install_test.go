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

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1000", 1000, true}, {"64MiB", 64 << 20, true}, {"1 GiB", 1 << 30, true}, {"2GB", 2e9, true},
		{"512KiB", 512 << 10, true}, {"10B", 10, true},
		{"", 0, false}, {"0", 0, false}, {"-5MiB", 0, false}, {"lots", 0, false}, {"9999999999GiB", 0, false},
	}
	for _, tt := range tests {
		got, err := parseSize(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
