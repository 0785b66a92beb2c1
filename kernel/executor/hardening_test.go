package executor

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A 50 MB cell of '<' (each a 6-byte JSON escape) and a result as large
// travel whole: the pipe has no line limit, and the session and its
// variables survive.
func TestHugeCellAndResultKeepTheSession(t *testing.T) {
	s, _ := newFake(t)
	ctx := context.Background()
	s.Execute(ctx, ExecRequest{Code: "set x=1"})
	const n = 50 << 20
	out := s.Execute(ctx, ExecRequest{Code: "set big=" + strings.Repeat("<", n)})
	if out.Restarted || out.Result.Error != nil {
		t.Fatalf("a %d-byte cell: %+v %+v", n, out, out.Result.Error)
	}
	if got := s.Execute(ctx, ExecRequest{Code: "len big"}); got.Result.Data["text/plain"] != "52428800" {
		t.Fatalf("len big = %+v", got.Result)
	}
	done := make(chan Outcome, 1)
	go func() { done <- s.Execute(ctx, ExecRequest{Code: "bigresult 52428800"}) }()
	select {
	case out = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("no reply to a cell with a 50 MB result")
	}
	if text, _ := out.Result.Data["text/plain"].(string); len(text) != n || out.Restarted {
		t.Fatalf("50 MB result arrived as %d bytes (restarted %v)", len(text), out.Restarted)
	}
	if got := s.Execute(ctx, ExecRequest{Code: "get x"}); got.Result.Data["text/plain"] != "1" {
		t.Fatalf("x lost: %+v", got.Result)
	}
}

// Output that looks like the pipe's sync marker is the cell's output like
// any other: printed whole, and not held back.
func TestOutputLookingLikeASyncMarkerIsPrinted(t *testing.T) {
	s, rec := newFake(t)
	for _, text := range []string{
		syncMarkerPfx + "5\x00 after",
		"before " + syncMarkerPfx + "99999\x00",
		string(syncMarker(syncPrefix("a-secret-the-child-does-not-use"), 1)),
	} {
		rec.reset()
		start := time.Now()
		out := s.Execute(context.Background(), ExecRequest{Code: "print " + text})
		if out.Result.Error != nil {
			t.Fatal(out.Result.Error)
		}
		if got := rec.stream("stdout"); got != text {
			t.Fatalf("stdout = %q, want %q", got, text)
		}
		if d := time.Since(start); d > 1500*time.Millisecond {
			t.Errorf("printing %q took %v: output was held back", text, d)
		}
	}
}

// Processes a cell starts do not inherit the executor's request and event
// pipes (fd 3 and 4), so they can neither read the kernel's requests nor
// write events.
func TestProcessesStartedFromACellDoNotInheritThePipes(t *testing.T) {
	s, _ := newFake(t)
	out := s.Execute(context.Background(), ExecRequest{Code: "fds"})
	if out.Result.Error != nil {
		t.Fatalf("%+v", out.Result.Error)
	}
	if got := out.Result.Data["text/plain"]; got != "" {
		t.Fatalf("a process started from a cell inherited:\n%s", got)
	}
}
