package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// uiArtifactsDir is where the UI tests keep their screenshots (git-ignored),
// unless GOACCEL_TEST_ARTIFACTS names another folder.
const uiArtifactsDir = "out/ui"

// uiModules are what the UI tests import from the PyPI stack.
var uiModules = []string{"jupyterlab", "notebook", "jupyter_server", "playwright"}

// TestJupyterLabAndNotebook7DriveGoaccelInChromium serves JupyterLab 4 and
// Notebook 7 from the PyPI stack's jupyter_server on loopback, with
// goaccel's kernelspec, and drives both in Debian's Chromium with
// Playwright as a user clicks (tests/ui/ui_checks.py, on tests/ui/harness.py).
// In each app: open notebooks/mnist_ddp.ipynb, pick "Go (goaccel)" in the
// kernel dialog, Run All Cells, and watch the launch cell (rank 0's
// progress bar and live loss plot each one output redrawn in place, rank 1's
// lines prefixed) and the returned metrics' plots; then in a notebook made
// from the app's "Go (goaccel)" item: printed text and a result, Tab
// completion of `strings.` (and in place after characters outside the BMP,
// which the browser counts in UTF-16), Shift+Tab's doc, an answer typed into
// the stdin box, one error pointing at the cell line, the ■ button stopping
// a long `%accelerate launch` within 2 s with no worker left and the next
// cell running, and Kernel → Restart. One server and one browser serve
// every check; each step's screenshot is kept in tests/out/ui (or
// GOACCEL_TEST_ARTIFACTS), whose paths the test prints at the end.
// GOACCEL_UI_CHECKS="lab interrupt" runs only the checks of those apps whose
// names contain those words.
func TestJupyterLabAndNotebook7DriveGoaccelInChromium(t *testing.T) {
	runUIChecks(t, uiRun{
		script:    "ui_checks.py",
		artifacts: "jupyter-ui",
		modules:   uiModules,
		versions:  []string{"jupyterlab", "notebook", "jupyter_server", "jupyter_client", "playwright"},
		timeout:   12 * time.Minute,
		prepare: func(t *testing.T, root string) {
			raw, err := os.ReadFile(filepath.Join("..", "notebooks", "mnist_ddp.ipynb"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "mnist_ddp.ipynb"), raw, 0o644); err != nil {
				t.Fatal(err)
			}
		},
	})
}

// uiRun is one script of UI checks (in tests/ui, on harness.py).
type uiRun struct {
	script    string        // ui_checks.py
	artifacts string        // its screenshots' folder in out/ui (or GOACCEL_TEST_ARTIFACTS)
	modules   []string      // what it imports from the PyPI stack
	versions  []string      // the distributions whose versions the log names
	timeout   time.Duration // for the script
	prepare   func(t *testing.T, root string)
}

// runUIChecks serves JupyterLab 4 and Notebook 7 from the PyPI stack's
// jupyter_server on loopback, with a freshly built goaccel kernelspec (and
// what r.prepare puts in the server's root folder), and runs r.script in
// tests/ui with the server in its environment: UI_BASE_URL, UI_TOKEN,
// UI_ROOT, UI_ARTIFACTS, UI_MARKER. The script's arguments are
// GOACCEL_UI_CHECKS's words ("lab interrupt": the checks of those apps
// whose names contain those words). It fails the test when the script
// fails or ran no check ("N passed, N failed" is its last line).
func runUIChecks(t *testing.T, r uiRun) {
	t.Helper()
	if _, err := os.Stat(browserChromium); err != nil {
		uiRequireFailed(t, fmt.Sprintf("the UI test needs %s (scripts/deps.sh test installs chromium): %v", browserChromium, err))
	}
	var pypi jupyterStack
	for _, s := range jupyterStacks() {
		if s.name == "pypi" {
			pypi = s
		}
	}
	pypi.require(t, r.modules...)
	t.Logf("pypi stack: %s", pypi.versions(r.versions...))
	start := time.Now()

	artifacts := os.Getenv("GOACCEL_TEST_ARTIFACTS")
	if artifacts == "" {
		artifacts, _ = filepath.Abs(uiArtifactsDir)
	}
	artifacts = filepath.Join(artifacts, r.artifacts)
	if err := os.RemoveAll(artifacts); err != nil {
		t.Fatal(err)
	}

	dataDir := t.TempDir()
	installGoaccelKernel(t, dataDir)
	srv := startJupyterServer(t, dataDir, pypi.command("jupyter"), func(s *notebookServer) []string {
		configureJupyterUI(t, s.configDir)
		return []string{"lab",
			"--no-browser",
			"--ip=127.0.0.1",
			"--port=" + strconv.Itoa(s.port),
			"--ServerApp.port_retries=0",
			"--IdentityProvider.token=" + s.token,
			"--ServerApp.root_dir=" + s.notebookDir,
			"--allow-root",
		}
	})
	srv.readyWithin = 90 * time.Second
	if r.prepare != nil {
		r.prepare(t, srv.notebookDir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), r.timeout)
	defer cancel()
	srv.waitReady(ctx, t)

	cmd := exec.CommandContext(ctx, pypi.python, append([]string{r.script}, strings.Fields(os.Getenv("GOACCEL_UI_CHECKS"))...)...)
	cmd.Dir = "ui"
	cmd.Env = pypi.env(append(os.Environ(),
		fmt.Sprintf("UI_BASE_URL=http://127.0.0.1:%d", srv.port),
		"UI_TOKEN="+srv.token,
		"UI_ROOT="+srv.notebookDir,
		"UI_ARTIFACTS="+artifacts,
		"UI_MARKER="+srv.marker,
	))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	checks := time.Now()
	err := cmd.Run()
	t.Logf("%s (%v; %v in all with the build and the server's start):\n%s",
		r.script, time.Since(checks).Round(time.Second), time.Since(start).Round(time.Second), out.String())
	if m := regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed$`).FindStringSubmatch(out.String()); m == nil || m[1] == "0" {
		t.Errorf("%s ran no check", r.script)
	}
	if err != nil {
		t.Fatalf("the UI checks failed (see FAIL above; screenshots in %s): %v", artifacts, err)
	}
	t.Logf("screenshots of every step: %s", artifacts)
}

// configureJupyterUI writes the server's and JupyterLab's settings into the
// server's config directory: the apps expose themselves to the page
// (window.jupyterapp, which the checks read to tell what the page shows),
// and JupyterLab asks for no news (no toast over the screenshots, nothing
// fetched from the network).
func configureJupyterUI(t *testing.T, configDir string) {
	t.Helper()
	write := func(rel string, v any) {
		raw, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(configDir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("jupyter_server_config.json", map[string]any{
		"LabApp":             map[string]any{"expose_app_in_browser": true},
		"JupyterNotebookApp": map[string]any{"expose_app_in_browser": true},
	})
	write(filepath.Join("lab", "user-settings", "@jupyterlab", "apputils-extension", "notification.jupyterlab-settings"),
		map[string]any{"fetchNews": "false", "checkForUpdates": false})
}

// uiRequireFailed skips the test, or fails it under
// GOACCEL_REQUIRE_JUPYTER_STACKS (as `make test` runs).
func uiRequireFailed(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv(requireStacksEnv) != "" {
		t.Fatal(msg)
	}
	t.Skip("skipping: " + strings.TrimSpace(msg))
}
