package tests

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestKernelPassesJupyterKernelTest runs jupyter_kernel_test's conformance
// suite (KernelTests, version 0.7 from the PyPI stack) against the installed
// kernel with goaccel's code samples (tests/kernel_conformance.py):
// kernel_info, streams, completion, is_complete, the pager, errors,
// execute_result, display_data, history, inspection, clear_output, and, with
// the suite's helpers and schemas, stdin, update_display_data, comm_info and
// an error's traceback. A test of the suite that skipped (no sample given)
// fails the run. Debian has no jupyter_kernel_test, so it runs on the PyPI
// stack only.
func TestKernelPassesJupyterKernelTest(t *testing.T) {
	var pypi jupyterStack
	for _, s := range jupyterStacks() {
		if s.name == "pypi" {
			pypi = s
		}
	}
	pypi.require(t, "jupyter_kernel_test", "jupyter_client")
	t.Logf("pypi stack: %s", pypi.versions("jupyter_kernel_test", "jupyter_client", "pyzmq"))
	dataDir := e2eKernel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pypi.python, "kernel_conformance.py")
	cmd.Env = pypi.env(append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir, "PYDEVD_DISABLE_FILE_VALIDATION=1"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	t.Logf("kernel_conformance.py (%v):\n%s", time.Since(start).Round(time.Millisecond), out.String())
	if err != nil {
		t.Fatalf("jupyter_kernel_test failed (see FAIL and ERROR above): %v", err)
	}
}
