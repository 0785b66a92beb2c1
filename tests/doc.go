// Package tests holds goaccel's end-to-end tests: each builds the goaccel
// binary (or a training program), installs its kernelspec into a temporary
// Jupyter data directory and drives it the way users do, through Jupyter
// front ends, nbconvert, a browser or real network links. The tests skip
// themselves where a tool they need (Debian's jupyter_client, Chromium,
// Node, network namespaces) is missing.
//
//	go test ./tests -run TestKernelSpeaksJupyterProtocolWithJupyterClient
//
// The package has no code of its own; its files are tests:
//   - browser_live_test.go: notebooks/mnist.ipynb and a two-process
//     `%accelerate launch` cell in classic Notebook in headless Chromium,
//     their live plots updated in place.
//   - browser_page_test.go, browser_server_test.go: the Chromium tab and the
//     Notebook server the browser tests use (testdata/browser/page.js).
//   - browser_test.go: a goaccel notebook run in the browser (text, results,
//     HTML, errors, an interrupt), or the same steps against ipykernel.
//   - console_test.go: `jupyter console` running cells from a terminal.
//   - deps_test.go: scripts/enable-nonfree.sh on both apt source formats.
//   - jupyterlab_test.go: JupyterLab's own kernel client in Node
//     (jupyterlab/client.mjs) driving goaccel through the Notebook server.
//   - kernel_e2e_test.go: every message type, forged and garbage frames,
//     interrupts, crashes, stdin and restarts through jupyter_client
//     (kernel_e2e.py), and the kernel exiting with its front end.
//   - launch_e2e_test.go: `%accelerate launch` and notebook_launcher.Launch
//     from cells through jupyter_client (launch_e2e.py), and the launch
//     notebooks of testdata/launch run by nbconvert.
//   - layout_test.go: the layers of the module: which folders may import
//     which, and the top-level internal/ kept to small leaves.
//   - netns_test.go: two hosts in Linux network namespaces training over a
//     real link (testdata/multinode), and failing cleanly when it is cut.
//   - notebook_language_test.go: what notebooks/go_language.ipynb prints
//     beyond what its own checks see (goroutine panics, derived executors).
//   - notebooks_test.go: every notebooks/*.ipynb executed with nbconvert and
//     its outputs checked.
//   - widgets_e2e_test.go: Jupyter comms and the ipywidgets 8 protocol
//     through jupyter_client (widgets_e2e.py), as a front end sends them,
//     with a launched worker's widget and the Stop button of its launch.
//   - widgets_ui_test.go: widgets in JupyterLab 4 and Notebook 7 in
//     Chromium, driven by Playwright (widgets_ui.py: drag a slider, click a
//     button, Interact re-run, a Stop button ending a two-worker launch),
//     with a Python the caller names (GOACCEL_UI_PYTHON).
//
// tests/gpu holds the GPU check (check.sh and the gpubench command) for a
// machine with an NVIDIA GPU.
package tests
