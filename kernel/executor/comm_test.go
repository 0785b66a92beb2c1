package executor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/comm"
)

// openTestComm runs the fake's "open" cell and returns the comm's id.
func openTestComm(t *testing.T, s *Supervisor) string {
	t.Helper()
	out := s.Execute(context.Background(), ExecRequest{Code: "open", Parent: "exec-1"})
	id, _ := out.Result.Data["text/plain"].(string)
	if out.Result.Error != nil || id == "" {
		t.Fatalf("open: %+v", out.Result)
	}
	return id
}

// waitFor waits until the recorder holds an event containing want.
func waitFor(t *testing.T, rec *recorder, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(strings.Join(rec.snapshot(), "|"), want) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no event with %q in %q", want, rec.snapshot())
}

func TestCommMessagesReachTheSessionWhileACellRuns(t *testing.T) {
	s, rec := newFake(t)
	id := openTestComm(t, s)
	waitFor(t, rec, "comm:comm_open:map[state:new]")
	done := make(chan Outcome, 1)
	go func() { done <- s.Execute(context.Background(), ExecRequest{Code: "loop"}) }()
	waitFor(t, rec, "stdout:looping")

	parent := json.RawMessage(`{"msg_id":"front-1","msg_type":"comm_msg"}`)
	n, err := s.DeliverComm(context.Background(), comm.Message{Type: "comm_msg", CommID: id, MsgID: "front-1", Parent: parent,
		Data: map[string]any{"do": "echo", "text": "hi"}})
	if err != nil || n != 0 {
		t.Fatalf("DeliverComm echo during a cell: deferred %d, %v", n, err)
	}
	// The answer went out while the cell still runs, with the message as its parent.
	waitFor(t, rec, `comm:comm_msg:map[echo:hi]:parent={"msg_id":"front-1","msg_type":"comm_msg"}`)
	n, err = s.DeliverComm(context.Background(), comm.Message{Type: "comm_msg", CommID: id, MsgID: "front-2", Data: map[string]any{"do": "defer", "text": "x"}})
	if err != nil || n != 1 {
		t.Fatalf("DeliverComm defer: deferred %d, %v; want 1", n, err)
	}
	select {
	case <-done:
		t.Fatal("the cell ended before its interrupt")
	default:
	}
	s.Interrupt()
	if out := <-done; !out.Result.Interrupted {
		t.Fatalf("loop: %+v", out.Result)
	}
	if got := rec.stream("stdout"); strings.Contains(got, "deferred") {
		t.Fatalf("deferred work ran during the cell: %q", got)
	}
	out := s.RunDeferred(context.Background(), "front-2", "front-2")
	if out.Result.Error != nil {
		t.Fatal(out.Result.Error)
	}
	if got := rec.stream("stdout"); !strings.Contains(got, "deferred x under front-2") {
		t.Fatalf("stdout %q: want the deferred work, run with its message as parent", got)
	}
}

// The work of one message can run as part of another request (the cell at
// whose end the callbacks of a message that came while it ran go): that
// request is its parent.
func TestDeferredWorkRunsUnderTheParentItIsGiven(t *testing.T) {
	s, rec := newFake(t)
	id := openTestComm(t, s)
	if n, _ := s.DeliverComm(context.Background(), comm.Message{Type: "comm_msg", CommID: id, MsgID: "front-3", Data: map[string]any{"do": "defer", "text": "y"}}); n != 1 {
		t.Fatalf("deliver: %d", n)
	}
	if out := s.RunDeferred(context.Background(), "front-3", "cell-9"); out.Result.Error != nil {
		t.Fatal(out.Result.Error)
	}
	if got := rec.stream("stdout"); !strings.Contains(got, "deferred y under cell-9") {
		t.Fatalf("stdout %q: want front-3's work run under cell-9", got)
	}
}

func TestCommInfoListsOpenCommsByTarget(t *testing.T) {
	s, rec := newFake(t)
	id := openTestComm(t, s)
	for _, tc := range []struct {
		target string
		want   int
	}{{"", 1}, {"test", 1}, {"jupyter.widget", 0}} {
		got, err := s.CommInfo(context.Background(), tc.target)
		if err != nil || len(got) != tc.want || (tc.want == 1 && got[id] != "test") {
			t.Errorf("CommInfo(%q) = %v, %v; want %d comm(s)", tc.target, got, err, tc.want)
		}
	}
	_, err := s.DeliverComm(context.Background(), comm.Message{Type: "comm_open", CommID: "c9", Target: "nobody", MsgID: "o1"})
	if err == nil || !strings.Contains(err.Error(), "nobody") {
		t.Fatalf("comm_open to an unknown target: %v", err)
	}
	waitFor(t, rec, "comm:comm_close")
	if _, err := s.DeliverComm(context.Background(), comm.Message{Type: "comm_msg", CommID: "gone"}); err == nil {
		t.Fatal("a message to no comm must be an error")
	}
	// The session is still there.
	if got, _ := s.CommInfo(context.Background(), ""); len(got) != 1 {
		t.Fatalf("after bad messages: %v", got)
	}
}

func TestInterruptStopsDeferredWork(t *testing.T) {
	s, rec := newFake(t)
	id := openTestComm(t, s)
	if n, err := s.DeliverComm(context.Background(), comm.Message{Type: "comm_msg", CommID: id, MsgID: "m", Data: map[string]any{"do": "loop"}}); n != 1 || err != nil {
		t.Fatalf("deliver: %d, %v", n, err)
	}
	done := make(chan Outcome, 1)
	go func() { done <- s.RunDeferred(context.Background(), "m", "m") }()
	waitFor(t, rec, "stdout:deferred looping")
	s.Interrupt()
	if out := <-done; !out.Result.Interrupted || out.Restarted {
		t.Fatalf("interrupted deferred work: %+v", out)
	}
	// A callback blocked in compiled code is killed after the grace, as a cell is.
	if n, _ := s.DeliverComm(context.Background(), comm.Message{Type: "comm_msg", CommID: id, MsgID: "b", Data: map[string]any{"do": "block"}}); n != 1 {
		t.Fatalf("deliver block: %d", n)
	}
	go func() { done <- s.RunDeferred(context.Background(), "b", "b") }()
	waitFor(t, rec, "stdout:deferred blocking")
	s.Interrupt()
	if out := <-done; !out.Restarted {
		t.Fatalf("blocked deferred work: %+v, want the executor restarted", out)
	}
}

func TestPanickingDeferredWorkIsAnErrorNotACrash(t *testing.T) {
	s, _ := newFake(t)
	id := openTestComm(t, s)
	if n, _ := s.DeliverComm(context.Background(), comm.Message{Type: "comm_msg", CommID: id, MsgID: "p", Data: map[string]any{"do": "panic"}}); n != 1 {
		t.Fatalf("deliver: %d", n)
	}
	out := s.RunDeferred(context.Background(), "p", "p")
	if out.Result.Error == nil || !strings.Contains(out.Result.Error.Evalue, "callback boom") || out.Restarted {
		t.Fatalf("panicking deferred work: %+v", out)
	}
	if got, _ := s.CommInfo(context.Background(), "test"); got[id] != "test" {
		t.Fatalf("the comm is gone after a callback panicked: %v", got)
	}
}
