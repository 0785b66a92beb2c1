package executor

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stuckSession's cells never return, like a call blocked in compiled code.
type stuckSession struct{ fakeSession }

func (stuckSession) Execute(ctx context.Context, code string) Result {
	select {}
}

func TestChildLeavesWhenTheKernelGoesAwayDuringAStuckCell(t *testing.T) {
	inR, inW := io.Pipe()
	c := NewChild(inR, io.Discard, io.Discard, io.Discard)
	done := make(chan error, 1)
	go func() { done <- c.Serve(context.Background(), &stuckSession{}) }()
	fw := newFrameWriter(inW)
	for _, r := range []request{{Op: opHello, Value: "secret"}, {ID: 1, Op: opExecute, Code: "stuck"}} {
		if err := fw.write(r); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	inW.Close() // the kernel died
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Serve should report that the kernel went away")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Serve still blocked 2 s after the kernel closed the request pipe")
	}
}

func TestChildReturnsNilWhenTheKernelClosesWhileIdle(t *testing.T) {
	inR, inW := io.Pipe()
	c := NewChild(inR, io.Discard, io.Discard, io.Discard)
	done := make(chan error, 1)
	go func() { done <- c.Serve(context.Background(), &fakeSession{}) }()
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve = %v, want nil on a clean close", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// countingSession records the execution count it is given before each cell.
type countingSession struct {
	fakeSession
	counts chan int
}

func (s *countingSession) SetExecutionCount(n int) { s.counts <- n }

func TestChildPassesTheExecutionCountToACounter(t *testing.T) {
	inR, inW := io.Pipe()
	c := NewChild(inR, io.Discard, io.Discard, io.Discard)
	s := &countingSession{counts: make(chan int, 1)}
	go c.Serve(context.Background(), s)
	defer inW.Close()
	fw := newFrameWriter(inW)
	for _, r := range []request{{Op: opHello, Value: "secret"}, {ID: 1, Op: opExecute, Code: "x", Count: 7}} {
		if err := fw.write(r); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case n := <-s.counts:
		if n != 7 {
			t.Errorf("SetExecutionCount(%d); want 7", n)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the session never got the execution count")
	}
}

// TestChildProcessExitsWhenTheKernelsPipeCloses: the lifeline of an executor where there is no
// parent-death signal (macOS). A child stuck in compiled code and started without one exits by
// itself once its request pipe's write end closes, as when the kernel is killed outright.
func TestChildProcessExitsWhenTheKernelsPipeCloses(t *testing.T) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer evR.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GOACCEL_FAKE_CHILD=1", EnvState+"="+filepath.Join(t.TempDir(), "state"))
	cmd.ExtraFiles = []*os.File{reqR, evW}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reqR.Close()
	evW.Close()
	go io.Copy(io.Discard, evR)
	fw := newFrameWriter(reqW)
	for _, r := range []request{{Op: opHello, Value: "secret"}, {ID: 1, Op: opExecute, Code: "block"}} {
		if err := fw.write(r); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(200 * time.Millisecond) // the cell is running
	reqW.Close()                       // the kernel is gone
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
		if !strings.Contains(stderr.String(), "closed the request pipe") {
			t.Errorf("the child's stderr does not say why it left: %q", stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the child still runs 10 s after its request pipe closed; stderr: %q", stderr.String())
	}
}
