package tests

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// launchEnv is the environment of a kernel whose launches keep their
// configuration and compiled workers in temporary folders.
func launchEnv(t *testing.T, dataDir string) []string {
	t.Helper()
	return append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir, "PYDEVD_DISABLE_FILE_VALIDATION=1",
		"HF_HOME="+t.TempDir(), "GOACCEL_CACHE="+t.TempDir())
}

// nbconvertModules are what executing a notebook headless imports.
var nbconvertModules = []string{"jupyter_client", "zmq", "nbconvert", "nbclient"}

// TestLaunchFromCellsThroughJupyterClient drives `%accelerate launch` and
// notebook_launcher.Launch through each stack's jupyter_client
// (tests/launch_e2e.py): arguments and results by value, worker panics,
// interrupts, displays, the env and config magics, export, compiled workers.
func TestLaunchFromCellsThroughJupyterClient(t *testing.T) {
	dataDir := e2eKernel(t)
	forEachStack(t, clientModules, func(t *testing.T, s jupyterStack) {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, s.python, "launch_e2e.py")
		cmd.Env = s.env(append(launchEnv(t, dataDir), "LAUNCH_E2E_DIR="+t.TempDir(),
			"GOACCEL_BIN="+filepath.Join(filepath.Dir(dataDir), "goaccel")))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		t.Logf("launch_e2e.py output:\n%s", out.String())
		if err != nil {
			t.Fatalf("launch_e2e.py failed (see FAIL lines above): %v", err)
		}
	})
}

// TestLaunchNotebooksExecuteWithNbconvert runs the launch notebooks of
// tests/testdata/launch headless with each stack's nbconvert: MNIST on 2
// workers (interpreted, compiled, bf16 with gradient accumulation) with test
// accuracy over the 10,000 test images, and training equivalence of 2
// workers and 1.
func TestLaunchNotebooksExecuteWithNbconvert(t *testing.T) {
	notebooks, _ := filepath.Glob("testdata/launch/*.ipynb")
	if len(notebooks) == 0 {
		t.Fatal("no notebooks in testdata/launch")
	}
	dataDir := e2eKernel(t)
	forEachStack(t, nbconvertModules, func(t *testing.T, s jupyterStack) {
		outDir := t.TempDir()
		for _, nb := range notebooks {
			name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
			t.Run(name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
				defer cancel()
				cmd := exec.CommandContext(ctx, s.python, "-m", "nbconvert", "--to", "notebook", "--execute",
					"--ExecutePreprocessor.timeout=600", "--ExecutePreprocessor.kernel_name=goaccel",
					"--output-dir", outDir, "--output", name, nb)
				cmd.Env = s.env(launchEnv(t, dataDir))
				start := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("nbconvert --execute %s: %v\n%s", nb, err, out)
				}
				t.Logf("%s executed in %v", name, time.Since(start).Round(time.Millisecond))
			})
		}
	})
}
