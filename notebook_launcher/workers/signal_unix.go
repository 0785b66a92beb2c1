//go:build unix

package workers

import "syscall"

// canLaunch reports why workers cannot start here: nil on Unix.
func canLaunch() error { return nil }

// signalGroup sends sig to the worker's process group (it leads its own group).
func signalGroup(w *worker, sig syscall.Signal) {
	if w.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-w.cmd.Process.Pid, sig)
}
