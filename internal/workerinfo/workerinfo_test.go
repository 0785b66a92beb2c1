package workerinfo

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// pipeFD returns the two ends of a pipe, and a duplicate of one of them
// (write or read) for FromEnv to own: its file is never closed by the test.
func pipeFD(t *testing.T, write bool) (r, w *os.File, fd int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	end := r
	if write {
		end = w
	}
	fd, err = syscall.Dup(int(end.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	return r, w, fd
}

// A worker whose launcher gave it pipes reports its status, under its
// RANK, on the status pipe and obeys the control pipe; without them it
// records what it is told and reports it to no one.
func TestFromEnvLinksToTheLaunchersPipesOrToNone(t *testing.T) {
	t.Run("no launcher", func(t *testing.T) {
		t.Setenv(EnvStatusFD, "")
		t.Setenv(EnvControlFD, "")
		w := FromEnv()
		if w.Controlled() || w.Device() != "cpu" {
			t.Fatalf("without pipes: Controlled %v, Device %q; want false, cpu", w.Controlled(), w.Device())
		}
		w.SetDevice("cuda:1")
		w.SetCheckpoint("ckpt", 3, false)
		w.Stopped("ckpt", 3)
		if w.Device() != "cuda:1" || w.snapshot().Phase != PhaseStopping.String() {
			t.Fatalf("without pipes the worker forgot: device %q, status %+v", w.Device(), w.snapshot())
		}
	})
	t.Run("launcher", func(t *testing.T) {
		statusR, _, statusFD := pipeFD(t, true)
		_, controlW, controlFD := pipeFD(t, false)
		// The launcher's end stays open as long as the test process runs: its close
		// would tell FromEnv's worker that the launcher is gone, and it would leave.
		if _, err := syscall.Dup(int(controlW.Fd())); err != nil {
			t.Fatal(err)
		}
		t.Setenv(EnvStatusFD, strconv.Itoa(statusFD))
		t.Setenv(EnvControlFD, strconv.Itoa(controlFD))
		t.Setenv("RANK", "2")
		w := FromEnv()
		if !w.Controlled() {
			t.Fatal("a worker with a control pipe is not Controlled")
		}
		w.SetCheckpoint("ckpt-7", 7, true) // tells the launcher at once
		sc := bufio.NewScanner(statusR)
		var s Status
		for s.Checkpoint == "" && sc.Scan() {
			if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
				t.Fatalf("status line %q: %v", sc.Text(), err)
			}
		}
		if s.Rank != 2 || s.Checkpoint != "ckpt-7" || s.CheckpointStep != 7 || !s.Resumed {
			t.Fatalf("status = %+v; want rank 2 resumed from ckpt-7 at step 7", s)
		}
		if _, err := controlW.Write(append(ControlMessage{Type: ControlStop, Mode: StopSave}.Encode(), '\n')); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for w.RequestedStop() != StopSave {
			if time.Now().After(deadline) {
				t.Fatalf("RequestedStop() = %v; want save", w.RequestedStop())
			}
			time.Sleep(time.Millisecond)
		}
	})
}
