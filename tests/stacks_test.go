package tests

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// jupyterStack is one installation of Jupyter's Python packages that the
// client tests run against: Debian 12's (jupyter_client 7.4, nbconvert 6.5,
// nbclient 0.7, jupyter_console 6.4) and the pinned PyPI versions people
// install today (tests/requirements-jupyter.txt: jupyter_client 8,
// nbconvert 7, nbclient 0.11, jupyter_console 6.6), which scripts/deps.sh
// installs into the virtual environment .venv/jupyter.
type jupyterStack struct {
	name   string // the subtest's name: "debian" or "pypi"
	python string // the interpreter that imports the stack
	bin    string // the folder of its commands (jupyter, jupyter-console, …)
	how    string // how to install it, for a skip message
}

const (
	// venvEnv names another virtual environment for the PyPI stack.
	venvEnv = "GOACCEL_JUPYTER_VENV"
	// requireStacksEnv, set by `make test`, turns a missing stack into a
	// failure instead of a skip: a green run must have run both.
	requireStacksEnv = "GOACCEL_REQUIRE_JUPYTER_STACKS"
)

// jupyterVenv is the PyPI stack's virtual environment, as an absolute path.
func jupyterVenv() string {
	if d := os.Getenv(venvEnv); d != "" {
		abs, _ := filepath.Abs(d)
		return abs
	}
	abs, _ := filepath.Abs(filepath.Join("..", ".venv", "jupyter"))
	return abs
}

// jupyterStacks are the stacks in the order the tests run them.
func jupyterStacks() []jupyterStack {
	venv := jupyterVenv()
	return []jupyterStack{
		{name: "debian", python: systemPython, bin: "/usr/bin", how: "scripts/deps.sh test installs Debian's jupyter-client, jupyter-nbconvert, jupyter-console"},
		{name: "pypi", python: filepath.Join(venv, "bin", "python"), bin: filepath.Join(venv, "bin"), how: "scripts/deps.sh test makes " + venv + " from tests/requirements-jupyter.txt"},
	}
}

// command runs one of the stack's commands (e.g. "jupyter").
func (s jupyterStack) command(name string) string { return filepath.Join(s.bin, name) }

// env is base with the stack's commands first on PATH, so that whatever a
// Jupyter tool starts by name (jupyter-nbconvert, a kernel's "python")
// comes from the same stack.
func (s jupyterStack) env(base []string) []string {
	out := make([]string, 0, len(base)+1)
	path := s.bin
	for _, kv := range base {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path += ":" + v
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+path)
}

// versions is what the stack reports for the named distributions.
func (s jupyterStack) versions(dists ...string) string {
	script := fmt.Sprintf(`import importlib.metadata as m
print(", ".join(d + " " + m.version(d) for d in %q.split()))`, strings.Join(dists, " "))
	out, err := exec.Command(s.python, "-c", script).CombinedOutput()
	if err != nil {
		return "versions unknown: " + strings.TrimSpace(string(out))
	}
	return strings.TrimSpace(string(out))
}

// forEachStack runs fn as one subtest per stack, named by the stack. A
// stack whose interpreter cannot import every module in modules is skipped
// with the reason, or fails the subtest when GOACCEL_REQUIRE_JUPYTER_STACKS
// is set (as `make test` sets it); with no modules, fn checks for itself
// (s.require).
func forEachStack(t *testing.T, modules []string, fn func(t *testing.T, s jupyterStack)) {
	t.Helper()
	for _, s := range jupyterStacks() {
		t.Run(s.name, func(t *testing.T) {
			if len(modules) == 0 {
				fn(t, s)
				return
			}
			s.require(t, modules...)
			t.Logf("%s stack: %s", s.name, s.versions(distributionsOf(modules)...))
			fn(t, s)
		})
	}
}

// require skips (or, under GOACCEL_REQUIRE_JUPYTER_STACKS, fails) t when
// the stack cannot import modules.
func (s jupyterStack) require(t *testing.T, modules ...string) {
	t.Helper()
	imports := "import " + strings.Join(modules, ", ")
	out, err := exec.Command(s.python, "-c", imports).CombinedOutput()
	if err == nil {
		return
	}
	msg := fmt.Sprintf("the %s stack (%s) cannot %q (%s): %v\n%s", s.name, s.python, imports, s.how, err, out)
	if os.Getenv(requireStacksEnv) != "" {
		t.Fatal(msg)
	}
	t.Skip("skipping: " + msg)
}

// distributionsOf maps Python modules to the distributions whose versions
// a subtest logs.
func distributionsOf(modules []string) []string {
	dist := map[string]string{
		"jupyter_client": "jupyter_client", "nbconvert": "nbconvert", "nbclient": "nbclient",
		"jupyter_console": "jupyter_console", "zmq": "pyzmq", "jupyter_kernel_test": "jupyter_kernel_test",
		"safetensors": "safetensors", "numpy": "numpy", "ml_dtypes": "ml_dtypes",
	}
	var out []string
	for _, m := range modules {
		if d, ok := dist[m]; ok {
			out = append(out, d)
		}
	}
	return out
}
