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

// TestLaunchFromCellsThroughJupyterClient drives `%accelerate launch` and
// notebook_launcher.Launch through jupyter_client (tests/launch_e2e.py):
// arguments and results by value, worker panics, interrupts, displays,
// the env and config magics, export, compiled workers.
func TestLaunchFromCellsThroughJupyterClient(t *testing.T) {
	requireJupyterClient(t)
	dataDir := e2eKernel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, systemPython, "launch_e2e.py")
	cmd.Env = append(launchEnv(t, dataDir), "LAUNCH_E2E_DIR="+t.TempDir(),
		"GOACCEL_BIN="+filepath.Join(filepath.Dir(dataDir), "goaccel"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("launch_e2e.py output:\n%s", out.String())
	if err != nil {
		t.Fatalf("launch_e2e.py failed (see FAIL lines above): %v", err)
	}
}

// TestLaunchNotebooksExecuteWithNbconvert runs the launch notebooks of
// tests/testdata/launch headless: MNIST on 2 workers (interpreted, compiled,
// bf16 with gradient accumulation) with test accuracy over the 10,000 test
// images, and training equivalence of 2 workers and 1.
func TestLaunchNotebooksExecuteWithNbconvert(t *testing.T) {
	requireJupyterClient(t)
	if err := exec.Command(systemPython, "-c", "import nbconvert, nbclient").Run(); err != nil {
		t.Skipf("skipping: %s cannot import nbconvert/nbclient (install jupyter-nbconvert: scripts/deps.sh): %v", systemPython, err)
	}
	notebooks, _ := filepath.Glob("testdata/launch/*.ipynb")
	if len(notebooks) == 0 {
		t.Fatal("no notebooks in testdata/launch")
	}
	dataDir := e2eKernel(t)
	outDir := t.TempDir()
	for _, nb := range notebooks {
		name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, systemPython, "-m", "nbconvert", "--to", "notebook", "--execute",
				"--ExecutePreprocessor.timeout=600", "--ExecutePreprocessor.kernel_name=goaccel",
				"--output-dir", outDir, "--output", name, nb)
			cmd.Env = launchEnv(t, dataDir)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("nbconvert --execute %s: %v\n%s", nb, err, out)
			}
		})
	}
}
