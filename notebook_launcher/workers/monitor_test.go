package workers

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/workerinfo"
)

// fakeWorker is the worker's side of the pipes the monitor reads and writes.
type fakeWorker struct {
	status   *io.PipeWriter
	requests *bufio.Scanner
}

func (w fakeWorker) send(t *testing.T, s workerinfo.Status) {
	t.Helper()
	b, _ := json.Marshal(s)
	if _, err := w.status.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
}

// request waits for the launcher's next message.
func (w fakeWorker) request(t *testing.T) workerinfo.ControlMessage {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		if w.requests.Scan() {
			got <- w.requests.Text()
		}
		close(got)
	}()
	select {
	case r := <-got:
		var m workerinfo.ControlMessage
		if err := json.Unmarshal([]byte(r), &m); err != nil {
			t.Fatalf("the launcher sent %q: %v", r, err)
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no request from the launcher within 10 s")
		return workerinfo.ControlMessage{}
	}
}

// waitReported waits until the monitor read a status of every rank.
func waitReported(t *testing.T, m *monitor) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for g := m.snapshot(); !g.Ranks[0].Reported || !g.Ranks[1].Reported; g = m.snapshot() {
		if time.Now().After(deadline) {
			t.Fatal("the monitor did not read the statuses")
		}
		time.Sleep(time.Millisecond)
	}
}

func attachFakes(m *monitor, n int) []fakeWorker {
	m.begin(0, n, func(i int) int { return i })
	ws := make([]fakeWorker, n)
	for i := range ws {
		sr, sw := io.Pipe()
		cr, cw, err := os.Pipe() // buffered, as a worker's is
		if err != nil {
			panic(err)
		}
		m.attach(i, sr, cw)
		ws[i] = fakeWorker{status: sw, requests: bufio.NewScanner(cr)}
	}
	return ws
}

// A collective rank 0 waits in, that rank 1 has not joined, is reported
// once it waited longer than the threshold: with rank 1 named, where it is
// (its line, mapped by Places) and its stacks, less the runtime's frames.
func TestMonitorReportsTheRankMissingFromAStalledCollective(t *testing.T) {
	stalls := make(chan Stall, 1)
	m := newMonitor(Config{Options: Options{NumProcesses: 2, NumNodes: 1, StallThreshold: 100 * time.Millisecond},
		Stall: func(s Stall) { stalls <- s }})
	ws := attachFakes(m, 2)
	done := make(chan struct{})
	defer close(done)
	go m.watch(done)
	ws[0].send(t, workerinfo.Status{Rank: 0, Phase: "computing", Collective: "all-reduce(sum)", Seq: 3})
	ws[1].send(t, workerinfo.Status{Rank: 1, Phase: "computing", Seq: 2, Line: 14})
	if r := ws[1].request(t); r.Type != workerinfo.ControlStacks {
		t.Fatalf("the launcher asked rank 1 for %+v; want its stacks", r)
	}
	ws[1].send(t, workerinfo.Status{Rank: 1, Phase: "computing", Seq: 2, Line: 14, Stacks: `goroutine 1 [sleep]:
time.Sleep(0x3b9aca00)
	/usr/lib/go/src/runtime/time.go:338 +0x167
reflect.Value.call({0x8, 0x9, 0x10}, {0x1, 0x4}, {0x1, 0x1, 0x1})
	/usr/lib/go/src/reflect/value.go:581 +0xca6
main.train(...)
	/tmp/job/notebook.go:14 +0x2a

goroutine 7 [select]:
runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)
	/usr/lib/go/src/runtime/proc.go:424 +0xce
`})
	var s Stall
	select {
	case s = <-stalls:
	case <-time.After(10 * time.Second):
		t.Fatal("no stall report within 10 s")
	}
	if s.Collective != "all-reduce(sum)" || s.Seq != 3 || len(s.Waiting) != 1 || s.Waiting[0] != 0 || len(s.Missing) != 1 || s.Missing[0].Rank != 1 {
		t.Fatalf("stall = %+v; want all-reduce(sum) #3 waited for by rank 0, missing rank 1", s)
	}
	text := s.Text(Places{Line: func(n int) string { return fmt.Sprintf("cell [3], line %d", n) }})
	for _, want := range []string{"all-reduce(sum) #3 has waited", "on rank 0; rank 1 has not joined it.",
		"rank 1 is computing, in no collective (it has been through 2), at cell [3], line 14", "time.Sleep  time.go:338", "main.train  notebook.go:14"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
	for _, noise := range []string{"reflect.", "runtime.gopark", "goroutine 7"} {
		if strings.Contains(text, noise) {
			t.Errorf("the report shows the machinery (%q):\n%s", noise, text)
		}
	}
	if g := m.snapshot(); !strings.HasPrefix(g.Ranks[0].Doing(), "all-reduce(sum) #3 for ") || g.Ranks[1].Doing() != "computing" {
		t.Errorf("the table says rank 0 is %q and rank 1 %q", g.Ranks[0].Doing(), g.Ranks[1].Doing())
	}
}

// The first Interrupt of workers that can stop asks each to stop; the
// second kills them. Workers that cannot stop are killed at the first.
func TestControlStopsGracefullyFirstAndKillsSecond(t *testing.T) {
	for _, stoppable := range []bool{true, false} {
		m := newMonitor(Config{Options: Options{NumProcesses: 2, NumNodes: 1}})
		ws := attachFakes(m, 2)
		for i, w := range ws {
			w.send(t, workerinfo.Status{Rank: i, Phase: "computing", Stoppable: stoppable})
		}
		waitReported(t, m)
		ctx, kill := context.WithCancelCause(context.Background())
		var c Control
		c.attach(m, kill, io.Discard)
		first := c.Interrupt()
		if stoppable {
			if first != Stopping {
				t.Fatalf("first Interrupt of stoppable workers = %v; want Stopping", first)
			}
			for i, w := range ws {
				if r := w.request(t); r.Type != workerinfo.ControlStop || r.Mode != StopSave {
					t.Errorf("rank %d was asked %+v; want a stop that saves", i, r)
				}
			}
			if ctx.Err() != nil {
				t.Fatal("a graceful stop cancelled the launch")
			}
			if c.Interrupt() != Killing {
				t.Fatal("second Interrupt did not kill")
			}
		} else if first != Killing {
			t.Fatalf("first Interrupt of workers that cannot stop = %v; want Killing", first)
		}
		if ctx.Err() == nil {
			t.Fatal("killing did not cancel the launch")
		}
		c.detach()
		if c.Interrupt() != NotRunning {
			t.Error("Interrupt after the launch ended did something")
		}
	}
}
