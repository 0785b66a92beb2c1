// Package tests holds goaccel's end-to-end tests: each builds the goaccel
// binary (or a training program), installs its kernelspec into a temporary
// Jupyter data directory and drives it the way users do, through Jupyter
// front ends, nbconvert, a browser or real network links. The tests skip
// themselves where a tool they need (Debian's jupyter_client, the PyPI stack,
// Chromium, Node, network namespaces) is missing, or fail naming the package
// that brings it where the test should run (the multi-host and Slurm tests
// as root); `make test` sets GOACCEL_REQUIRE_JUPYTER_STACKS, which turns a
// missing Jupyter stack into a failure.
//
//	go test ./tests -run TestKernelSpeaksJupyterProtocolWithJupyterClient
//	go test ./tests -run TestKernelSpeaksJupyterProtocolWithJupyterClient/pypi
//
// Two Jupyter stacks: the client tests run once on Debian 12's packages
// (jupyter_client 7.4, nbconvert 6.5, nbclient 0.7, jupyter_console 6.4, the
// classic Notebook 6.4 server) and once on the pinned PyPI versions people
// install today (requirements-jupyter.txt: jupyter_client 8.10, nbconvert
// 7.17, nbclient 0.11, jupyter_console 6.6, jupyter_server 2.21, JupyterLab
// 4.6, Notebook 7.6, jupyter_kernel_test 0.7, safetensors 0.8, Playwright
// 1.65), which scripts/deps.sh test installs into .venv/jupyter; each
// subtest is named by its stack ("debian", "pypi"). GOACCEL_JUPYTER_VENV
// names another virtual environment for the PyPI stack.
//
// The UI harness (ui/harness.py) is for any test that clicks through
// JupyterLab 4 or Notebook 7; runUIChecks (ui_test.go) starts the server it
// needs (startJupyterServer with configureJupyterUI) and runs a script of
// tests/ui with it (ui_checks.py, widgets_ui.py):
//   - Browser: Debian's Chromium under Playwright (never a downloaded
//     browser), with the flags this closed network needs; JavaScript errors
//     collect in Browser.console, failed requests in Browser.http_errors.
//   - Lab.open / Notebook7.open, then app.new_notebook("Go (goaccel)") (the
//     Launcher's tile, or New → Go (goaccel)) or app.open_file(name): a
//     NotebookPage whose kernel is idle.
//   - NotebookPage.run(source) types a new cell and runs it with
//     Shift+Enter, returning its Cell (outputs() as nbformat, text() as
//     shown, errors(), images(), wait_done(), wait_text(), output(css) for
//     a widget's elements, watch(name, js)/watched(name): what the cell's
//     DOM showed at each change while it ran); drag(handle, dx) (a
//     slider), save(), reload() (the page reloaded on the running kernel),
//     menu("Run", "Run All Cells"), toolbar("notebook:interrupt-kernel"),
//     dialog_accept("Restart").
//   - Shots(folder).take(page, name, locator) and take_around(page, name,
//     *locators): numbered screenshots of each step.
//   - wait_for(what, cond, timeout): the one way to wait (polling with a
//     deadline; nothing sleeps a fixed time); check(cond, msg) fails a check.
//   - run_checks(browser, shots, checks): PASS/FAIL and the time of each,
//     a screenshot of every page when one fails; no_script_errors (the
//     apps' own errors set apart); count_frames(page, needles): the kernel
//     websocket's frames holding a comm target or method.
//   - marked_processes(marker): the processes the server under test started
//     (kernels, executors, workers), to check none is left.
//
// The package has no code of its own; its files are tests:
//   - browser_live_test.go: notebooks/mnist.ipynb and a two-process
//     `%accelerate launch` cell in classic Notebook in headless Chromium,
//     their live plots updated in place (every image the cell showed is
//     recorded by a MutationObserver in the page, so a short run's redraws
//     are counted even between two samples).
//   - browser_page_test.go, browser_server_test.go: the Chromium tab and the
//     Notebook server the browser tests use (testdata/browser/page.js), and
//     startJupyterServer, which starts any Jupyter server that way.
//   - browser_test.go: a goaccel notebook run in the browser (text, results,
//     HTML, errors, an interrupt), or the same steps against ipykernel.
//   - console_test.go: each stack's `jupyter console` running cells from a
//     terminal.
//   - deps_test.go: scripts/enable-nonfree.sh on both apt source formats,
//     and the pinned requirements files (requirements-jupyter.txt,
//     scripts/requirements-run.txt) agreeing on every version.
//   - export_test.go: `%accelerate export` folders, from a session on
//     goaccel's executor and from one on a derived executor (export_e2e.py),
//     built and run with the commands their README names (go build, go run
//     ., goaccel launch), with no GOFLAGS and GOPROXY=off.
//   - globals_test.go: the process-wide state of the module: every
//     package-level variable that code other than init changes is listed
//     with why it is process-wide (processGlobals); what a process offers
//     library code goes through internal/host, which only the entry points
//     install.
//   - jupyterlab_test.go: JupyterLab's own kernel client in Node
//     (jupyterlab/client.mjs) driving goaccel through each stack's server
//     (the classic Notebook server, jupyter_server 2).
//   - kernel_conformance_test.go: jupyter_kernel_test's KernelTests with
//     goaccel's code samples (kernel_conformance.py), on the PyPI stack.
//   - kernel_e2e_test.go: every message type, forged and garbage frames,
//     interrupts, crashes, stdin and restarts through each stack's
//     jupyter_client (kernel_e2e.py), and the kernel exiting with its front
//     end.
//   - launch_e2e_test.go: `%accelerate launch` and notebook_launcher.Launch
//     from cells through each stack's jupyter_client (launch_e2e.py), and the
//     launch notebooks of testdata/launch run by each stack's nbconvert.
//   - finetune_test.go: what notebooks/finetune_text_classification.ipynb
//     shows, and the folder it saved loaded with transformers (.venv/hf):
//     the same predicted topics as goaccel's on the held-out articles.
//   - layout_test.go: the layers of the module: which folders may import
//     which, and the top-level internal/ kept to small leaves.
//   - netns_test.go: two hosts in Linux network namespaces training over a
//     real link (testdata/multinode), and failing cleanly when it is cut.
//   - notebook_language_test.go: what notebooks/go_language.ipynb prints
//     beyond what its own checks see (goroutine panics, derived executors).
//   - notebooks_test.go: every notebooks/*.ipynb executed with each stack's
//     nbconvert and its outputs checked.
//   - procattr_linux_test.go, procattr_other_test.go: the process group of
//     the servers the tests start, and Linux's parent-death signal for them.
//   - resume_test.go: restarts after a worker's SIGKILL, stop on interrupt
//     and --resume (equal to the uninterrupted run bit for bit), a second
//     interrupt, stall reports and the status table, from goaccel launch and
//     from cells (resume_e2e.py); the training is testdata/resume/train.go.
//   - safetensors_interop_test.go: goaccel's safetensors files read by
//     Python's safetensors library, and its files read by goaccel
//     (safetensors_interop.py).
//   - slurm_test.go: a Slurm cluster (munged, slurmctld, a slurmd per
//     network-namespace host) running scripts/slurm's batch scripts, and
//     mpirun across the same two hosts, training a function exported from a
//     notebook.
//   - soak_test.go: a long session through the real kernel (soak_e2e.py):
//     the cell of issue 30 re-run 4,000 times, the memory (Pss) of the
//     kernel's process tree bounded, flat after the first thousand runs and
//     given back when the session is idle.
//   - stacks_test.go: the two Jupyter stacks and forEachStack, which runs a
//     test once on each.
//   - ui_test.go: JupyterLab 4 and Notebook 7 (the PyPI stack's
//     jupyter_server) in Chromium, driven by Playwright as a user clicks
//     (ui/ui_checks.py on ui/harness.py): mnist_ddp.ipynb run whole with its
//     launch cell watched, completion, Shift+Tab, stdin, errors, interrupting
//     a launch, restart; a screenshot of every step in out/ui (git-ignored);
//     and runUIChecks, which both UI tests use.
//   - widgets_e2e_test.go: Jupyter comms and the ipywidgets 8 protocol
//     through jupyter_client (widgets_e2e.py), as a front end sends them,
//     with a launched worker's widget and the Stop button of its launch.
//   - widgets_ui_test.go: widgets in JupyterLab 4 and Notebook 7 in
//     Chromium, driven by Playwright as a user clicks (ui/widgets_ui.py on
//     ui/harness.py): every widget kind's interactions (sliders dragged, a
//     Dropdown picked, a Checkbox ticked, a Text submitted, buttons
//     clicked), Progress, a widget progress bar and a widget Live plot
//     advancing in place, an Image's pixels, clicks and drags while a cell
//     runs, a panicking callback, a reload restoring the widgets, a launched
//     worker's slider and the Stop button; screenshots in out/ui/widgets.
//
// tests/gpu holds the GPU check (check.sh and the gpubench command) for a
// machine with an NVIDIA GPU.
package tests
