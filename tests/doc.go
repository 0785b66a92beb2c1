// Package tests holds goaccel's end-to-end tests: each builds the goaccel
// binary (or a training program), installs its kernelspec into a temporary
// Jupyter data directory and drives it the way users do, through Jupyter
// front ends, nbconvert, a browser or real network links. The tests skip
// themselves where a tool they need (Debian's jupyter_client, Chromium,
// Node, network namespaces) is missing, or fail naming the package that
// brings it where the test should run (the multi-host and Slurm tests as root).
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
//   - resume_test.go: restarts after a worker's SIGKILL, stop on interrupt
//     and --resume (equal to the uninterrupted run bit for bit), a second
//     interrupt, stall reports and the status table, from goaccel launch and
//     from cells (resume_e2e.py); the training is testdata/resume/train.go.
//   - slurm_test.go: a Slurm cluster (munged, slurmctld, a slurmd per
//     network-namespace host) running scripts/slurm's batch scripts, and
//     mpirun across the same two hosts, training a function exported from a
//     notebook.
//
// tests/gpu holds the GPU check (check.sh and the gpubench command) for a
// machine with an NVIDIA GPU.
package tests
