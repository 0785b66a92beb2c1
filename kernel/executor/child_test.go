package executor

import (
	"context"
	"io"
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
