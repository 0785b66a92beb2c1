// Package trackerenv finds what the tracker tests need outside the repository: a Python with
// tensorboard and mlflow, the readers that check what accelerate's TensorBoard and MLflow
// trackers write, in the virtual environment .venv/trackers that `scripts/deps.sh test` makes
// from tests/requirements-trackers.txt. A test that cannot find it skips and says how to
// provide it, or fails under GOACCEL_REQUIRE_JUPYTER_STACKS (as `make test` runs).
package trackerenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The environment variables the tests read.
const (
	// PythonEnv names a Python interpreter with tensorboard and mlflow.
	PythonEnv = "GOACCEL_TRACKERS_PYTHON"
	// RequireEnv, set by `make test`, turns a missing environment into a failure.
	RequireEnv = "GOACCEL_REQUIRE_JUPYTER_STACKS"
)

// Root returns the repository's root folder (the one with go.mod).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// Python returns the interpreter of .venv/trackers (or $GOACCEL_TRACKERS_PYTHON) once it
// imports modules; without one it skips t, or fails it under GOACCEL_REQUIRE_JUPYTER_STACKS.
func Python(t testing.TB, modules ...string) string {
	t.Helper()
	py := os.Getenv(PythonEnv)
	if py == "" {
		py = filepath.Join(Root(t), ".venv", "trackers", "bin", "python")
	}
	if _, err := os.Stat(py); err != nil {
		missing(t, "no Python with tensorboard and mlflow at "+py+" ("+PythonEnv+" names another)")
	}
	if len(modules) > 0 {
		imports := "import " + strings.Join(modules, ", ")
		if out, err := exec.Command(py, "-c", imports).CombinedOutput(); err != nil {
			missing(t, py+" cannot "+imports+": "+err.Error()+"\n"+string(out))
		}
	}
	return py
}

// missing skips t with why, or fails it when RequireEnv is set.
func missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("%s (%s is set: run scripts/deps.sh test, which makes .venv/trackers from tests/requirements-trackers.txt)", why, RequireEnv)
	}
	t.Skip("skipping: " + why + "; scripts/deps.sh test makes .venv/trackers from tests/requirements-trackers.txt")
}

// Run runs script (Python source) with py and args and returns its standard output; it fails
// t, with the script's standard error, when the script fails.
func Run(t testing.TB, py, script string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the Python script failed: %v\n%s", err, stderr.String())
	}
	return out
}
