package tests

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestWidgetsInJupyterLabAndNotebook7 runs tests/widgets_ui.py: JupyterLab 4
// and Notebook 7 served by jupyter_server on loopback, driven in Debian's
// Chromium by Playwright; in each it runs a notebook of widgets, drags a
// slider, clicks a button and sees the output change, then clicks the Stop
// button of a two-worker launch and sees the cell end with rank 0's result,
// keeping a screenshot of every step (in tests/out/ui/widgets, or under
// GOACCEL_TEST_ARTIFACTS). It runs on the PyPI stack (jupyterlab 4.6,
// notebook 7.6, jupyterlab_widgets 3.0.17, ipywidgets 8.1.9, playwright).
func TestWidgetsInJupyterLabAndNotebook7(t *testing.T) {
	if _, err := os.Stat(browserChromium); err != nil {
		uiRequireFailed(t, fmt.Sprintf("the widget UI test needs %s (scripts/deps.sh test installs chromium): %v", browserChromium, err))
	}
	var pypi jupyterStack
	for _, s := range jupyterStacks() {
		if s.name == "pypi" {
			pypi = s
		}
	}
	pypi.require(t, "jupyterlab", "notebook", "jupyterlab_widgets", "ipywidgets", "playwright")
	t.Logf("pypi stack: %s", pypi.versions("jupyterlab", "notebook", "jupyterlab_widgets", "ipywidgets", "playwright"))
	artifacts := os.Getenv("GOACCEL_TEST_ARTIFACTS")
	if artifacts == "" {
		artifacts, _ = filepath.Abs(uiArtifactsDir)
	}
	artifacts = filepath.Join(artifacts, "widgets")
	if err := os.RemoveAll(artifacts); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	dataDir := e2eKernel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, pypi.python, "widgets_ui.py")
	cmd.Env = pypi.env(append(launchEnv(t, dataDir), "UI_ARTIFACTS="+artifacts))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("widgets_ui.py output:\n%s", out.String())
	if err != nil {
		t.Fatalf("widgets_ui.py failed (see FAIL lines above; screenshots in %s): %v", artifacts, err)
	}
	t.Logf("screenshots: %s", artifacts)
}
