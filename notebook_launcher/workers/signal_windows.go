package workers

import (
	"errors"
	"syscall"
)

// errNoWorkers is RunGroup's error on Windows: a worker's status and control pipes are
// inherited descriptors (os/exec's ExtraFiles), which Windows does not have, and a group is
// stopped with process-group signals.
var errNoWorkers = errors.New("workers: launching worker processes needs Linux or macOS (Windows has no inherited pipes or process-group signals)")

func canLaunch() error { return errNoWorkers }

// sysProcAttr is Windows's defaults.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// signalGroup kills the worker: Windows has no signals to send it.
func signalGroup(w *worker, sig syscall.Signal) {
	if w.cmd.Process != nil {
		_ = w.cmd.Process.Kill()
	}
}
