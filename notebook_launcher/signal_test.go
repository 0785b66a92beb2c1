package notebook_launcher_test

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	nl "github.com/goaccel/goaccel/notebook_launcher"
)

// A launcher process that gets Ctrl-C (SIGINT) forwards it and waits; one
// that is SIGKILLed takes its workers with it (Pdeathsig). Either way no
// worker is left behind.
func TestLauncherSignalsLeaveNoOrphans(t *testing.T) {
	if os.Getenv("NL_SIGNAL_PARENT") != "" {
		dir := os.Getenv("NL_TEST_DIR")
		_, _ = nl.Launch(func() {
			writePid(dir)
			time.Sleep(time.Minute)
		}, nl.Options{NumProcesses: 2, Args: only(t)})
		return
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()[:len("TestLauncherSignalsLeaveNoOrphans")]+"$")
			cmd.Env = append(os.Environ(), "NL_SIGNAL_PARENT=1", "NL_TEST_DIR="+dir)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for len(pids(dir)) < 2 {
				if time.Now().After(deadline) {
					_ = cmd.Process.Kill()
					t.Fatal("workers did not start")
				}
				time.Sleep(20 * time.Millisecond)
			}
			_ = cmd.Process.Signal(sig)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				t.Fatalf("launcher still running 10s after %v", sig)
			}
			// Pdeathsig delivery is asynchronous: allow the kernel a moment. A dead
			// orphan stays a zombie until PID 1 reaps it, which exited counts as gone.
			deadline = time.Now().Add(10 * time.Second)
			for _, p := range pids(dir) {
				for !exited(p) && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if !exited(p) {
					t.Errorf("worker %d survived the launcher's %v", p, sig)
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
			}
		})
	}
}
