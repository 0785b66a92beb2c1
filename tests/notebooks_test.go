package tests

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEveryNotebookExecutesWithNbconvert runs
// `jupyter nbconvert --to notebook --execute` on each notebooks/*.ipynb with
// the freshly built kernel. Cells tagged raises-exception may fail; any other
// error fails the test.
func TestEveryNotebookExecutesWithNbconvert(t *testing.T) {
	requireJupyterClient(t)
	if err := exec.Command(systemPython, "-c", "import nbconvert, nbclient").Run(); err != nil {
		t.Skipf("skipping: %s cannot import nbconvert/nbclient (install jupyter-nbconvert: scripts/deps.sh): %v", systemPython, err)
	}
	notebooks, err := filepath.Glob("../notebooks/*.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	if len(notebooks) == 0 {
		t.Fatal("no notebooks found in notebooks/*.ipynb: the suite must execute at least notebooks/quickstart.ipynb")
	}
	dataDir := e2eKernel(t)
	outDir := t.TempDir()
	for _, nb := range notebooks {
		name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			args := []string{"nbconvert", "--to", "notebook", "--execute",
				"--ExecutePreprocessor.timeout=600", "--ExecutePreprocessor.kernel_name=goaccel",
				"--output-dir", outDir, "--output", name, nb}
			cmd := exec.CommandContext(ctx, "/usr/bin/jupyter", args...)
			if _, err := os.Stat("/usr/bin/jupyter"); err != nil {
				cmd = exec.CommandContext(ctx, systemPython, append([]string{"-m"}, args...)...)
			}
			cmd.Env = append(os.Environ(), "JUPYTER_DATA_DIR="+dataDir, "PYDEVD_DISABLE_FILE_VALIDATION=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("nbconvert --execute %s: %v\n%s", nb, err, out)
			}
			if _, err := os.Stat(filepath.Join(outDir, name+".ipynb")); err != nil {
				t.Fatalf("nbconvert wrote no executed notebook: %v\n%s", err, out)
			}
		})
	}
}
