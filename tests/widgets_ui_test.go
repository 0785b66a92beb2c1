package tests

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestWidgetsInJupyterLabAndNotebook7 runs tests/widgets_ui.py: JupyterLab 4
// and Notebook 7 served by jupyter_server on loopback, driven in Debian's
// Chromium by Playwright; in each it runs a notebook of widgets, drags a
// slider, clicks a button and sees the output change, then clicks the Stop
// button of a two-worker launch and sees the cell end with rank 0's result,
// keeping a screenshot of every step. It needs a Python with jupyterlab 4.6, notebook 7.6,
// jupyterlab_widgets 3.0.17, ipywidgets 8.1.9 and playwright, named by
// GOACCEL_UI_PYTHON (until the pinned test venv of tests/requirements-jupyter.txt
// provides one), and skips without it. Screenshots go to GOACCEL_UI_ARTIFACTS
// when set, else to a temporary folder the log names.
func TestWidgetsInJupyterLabAndNotebook7(t *testing.T) {
	python := os.Getenv("GOACCEL_UI_PYTHON")
	if python == "" {
		t.Skip("skipping: GOACCEL_UI_PYTHON names no Python with jupyterlab, notebook 7, ipywidgets 8 and playwright")
	}
	if err := exec.Command(python, "-c", "import jupyterlab, notebook, ipywidgets, playwright").Run(); err != nil {
		t.Fatalf("%s cannot import jupyterlab, notebook, ipywidgets and playwright: %v", python, err)
	}
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Skipf("skipping: no Debian Chromium (/usr/bin/chromium; scripts/deps.sh installs it): %v", err)
	}
	dataDir := e2eKernel(t)
	artifacts := os.Getenv("GOACCEL_UI_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "widgets_ui.py")
	cmd.Env = append(launchEnv(t, dataDir), "UI_ARTIFACTS="+artifacts)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("widgets_ui.py output:\n%s", out.String())
	if err != nil {
		t.Fatalf("widgets_ui.py failed (see FAIL lines above; screenshots in %s): %v", artifacts, err)
	}
}
