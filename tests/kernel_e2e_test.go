package tests

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// systemPython is Debian's interpreter, with Debian's Jupyter packages.
const systemPython = "/usr/bin/python3"

// clientModules are what a jupyter_client test imports.
var clientModules = []string{"jupyter_client", "zmq"}

// e2eKernel builds goaccel into a temporary directory and installs its
// kernelspec into a temporary JUPYTER_DATA_DIR, which it returns.
func e2eKernel(t *testing.T) (dataDir string) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "goaccel")
	build := exec.Command("go", "build", "-o", bin, "../cmd/goaccel")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ../cmd/goaccel: %v\n%s", err, out)
	}
	dataDir = filepath.Join(dir, "jupyter")
	install := exec.Command(bin, "install")
	install.Env = append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("goaccel install: %v\n%s", err, out)
	}
	return dataDir
}

// TestKernelSpeaksJupyterProtocolWithJupyterClient drives the installed kernel
// with jupyter_client (tests/kernel_e2e.py) of each stack: every message
// type, bad signatures and garbage frames, interrupts, crashes, stdin,
// restart.
func TestKernelSpeaksJupyterProtocolWithJupyterClient(t *testing.T) {
	dataDir := e2eKernel(t)
	forEachStack(t, clientModules, func(t *testing.T, s jupyterStack) {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, s.python, "kernel_e2e.py")
		cmd.Env = s.env(append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir, "PYDEVD_DISABLE_FILE_VALIDATION=1"))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		t.Logf("kernel_e2e.py output:\n%s", out.String())
		if err != nil {
			t.Fatalf("kernel_e2e.py failed (see FAIL lines above): %v", err)
		}
	})
}

// TestKernelExitsWhenItsFrontEndExits runs a file with `jupyter run`, which
// exits without shutting its kernel down: the kernel must notice its parent
// is gone (JPY_PARENT_PID) and exit, leaving no process behind.
func TestKernelExitsWhenItsFrontEndExits(t *testing.T) {
	dataDir := e2eKernel(t)
	src := filepath.Join(t.TempDir(), "cell.go")
	if err := os.WriteFile(src, []byte("x := 6\nx * 7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	forEachStack(t, clientModules, func(t *testing.T, s jupyterStack) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, s.python, "-m", "jupyter_client.runapp", "--kernel=goaccel", src)
		cmd.Env = s.env(append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir, "PYDEVD_DISABLE_FILE_VALIDATION=1"))
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("42")) {
			t.Fatalf("jupyter run: %v\n%s", err, out)
		}
		bin := filepath.Join(filepath.Dir(dataDir), "goaccel")
		deadline := time.Now().Add(5 * time.Second)
		for {
			left, _ := exec.Command("pgrep", "-f", bin).Output()
			if len(bytes.TrimSpace(left)) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("kernel processes still running 5 s after jupyter run exited: %s", left)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
}
