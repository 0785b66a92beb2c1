package tests

import (
	"testing"
	"time"
)

// TestWidgetsInJupyterLabAndNotebook7 runs tests/ui/widgets_ui.py (on
// tests/ui/harness.py): in JupyterLab 4 and Notebook 7, served by the PyPI
// stack's jupyter_server on loopback and driven in Debian's Chromium by
// Playwright, one new Go notebook takes every interaction with each widget
// kind as a user makes it: drag an IntSlider and a FloatSlider (read back
// on its step), click a Button, move Interact's slider, pick in a Dropdown,
// tick a Checkbox, type into a Text and press Enter; watch a Progress, a
// progress.Options{Widget: true} bar and a plots.Live in widget mode
// advance in place while their loops run, and an Image show its PNG at its
// size; click a button and drag a slider while a long cell runs (the loop
// reads the value at once, the callbacks' output comes at the cell's end,
// under their own cell); a panicking callback's report under its cell with
// the session kept; a saved page reloaded (the widgets back through the
// jupyter.widget.control comm, and working); a slider shown by rank 0 of a
// two-worker `%accelerate launch` read by its training loop as it moves,
// then the launch's Stop button. Each step's screenshot is kept in
// tests/out/ui/widgets (or GOACCEL_TEST_ARTIFACTS). GOACCEL_UI_CHECKS
// narrows the run as for TestJupyterLabAndNotebook7DriveGoaccelInChromium.
func TestWidgetsInJupyterLabAndNotebook7(t *testing.T) {
	runUIChecks(t, uiRun{
		script:    "widgets_ui.py",
		artifacts: "widgets",
		modules:   []string{"jupyterlab", "notebook", "jupyter_server", "jupyterlab_widgets", "ipywidgets", "playwright"},
		versions:  []string{"jupyterlab", "notebook", "jupyterlab_widgets", "ipywidgets", "playwright"},
		timeout:   8 * time.Minute,
	})
}
