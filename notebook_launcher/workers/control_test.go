package workers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/workerinfo"
)

// syncBuffer is a bytes.Buffer safe for the relay's writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Control.Send carries messages to one worker's control pipe (fd 4), in
// order; a message with a newline is refused, and once the worker exited
// nothing is taken.
func TestControlPipesCarryMessagesToEachWorker(t *testing.T) {
	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m := newMonitor(Config{Options: Options{NumProcesses: 2, NumNodes: 1}})
	m.begin(0, 2, func(i int) int { return i })
	var c Control
	c.attach(m, func(error) {}, io.Discard)
	defer c.detach()
	err := RunGroup(ctx, GroupSpec{
		Path: "/bin/sh", Args: []string{"-c", `test "$` + workerinfo.EnvControlFD + `" = 4 && read a <&4 && read b <&4 && echo "got $a $b"`},
		NumProcs: 2, Stdout: &out, Pipes: m.attach, Exited: m.exited,
		Started: func([]int) {
			for rank := range 2 {
				if !c.Send(rank, []byte(fmt.Sprintf("hello-%d", rank))) || !c.Send(rank, []byte("bye")) {
					t.Errorf("Send to rank %d failed", rank)
				}
				if c.Send(rank, []byte("two\nlines")) {
					t.Error("a message with a newline was accepted")
				}
			}
		},
	})
	if err != nil {
		t.Fatalf("RunGroup: %v\n%s", err, out.String())
	}
	for _, want := range []string{"got hello-0 bye", "[rank 1] got hello-1 bye"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output %q lacks %q", out.String(), want)
		}
	}
	if c.Send(0, []byte("late")) {
		t.Fatal("a worker's control pipe still takes messages after it exited")
	}
}

// A finish never kills: it asks every worker, once, even those that cannot
// stop at a step boundary (a loop may ask acc.StopRequested()); asked before
// the workers run, it reaches them as they start; an interrupt after it
// asks them to save, and the next kills.
func TestControlFinishAsksEveryWorkerAndAnInterruptThenSaves(t *testing.T) {
	m := newMonitor(Config{Options: Options{NumProcesses: 2, NumNodes: 1}})
	var c Control
	if c.Stop(StopFinish) != Stopping {
		t.Fatal("a finish asked before the workers run is not kept")
	}
	ctx, kill := context.WithCancelCause(context.Background())
	var said syncBuffer
	c.attach(m, kill, &said)
	ws := attachFakes(m, 2)
	for i, w := range ws {
		if r := w.request(t); r.Type != workerinfo.ControlStop || r.Mode != StopFinish {
			t.Fatalf("rank %d was asked %+v; want a finish", i, r)
		}
		w.send(t, workerinfo.Status{Rank: i, Phase: "computing", Stoppable: true})
	}
	if !strings.Contains(said.String(), "stop requested") {
		t.Errorf("the finish does not say so: %q", said.String())
	}
	if c.Stop(StopFinish) != Stopping || ctx.Err() != nil {
		t.Fatal("a second finish did something else than wait")
	}
	waitReported(t, m)
	if c.Interrupt() != Stopping {
		t.Fatal("an interrupt after a finish does not save")
	}
	for i, w := range ws {
		if r := w.request(t); r.Type != workerinfo.ControlStop || r.Mode != StopSave {
			t.Fatalf("rank %d was asked %+v; want a save", i, r)
		}
	}
	if g := m.snapshot(); g.Stopping != StopSave || !strings.Contains(g.Text(), "saves its state") {
		t.Errorf("the table says %q", g.Text())
	}
	if c.Interrupt() != Killing || ctx.Err() == nil {
		t.Fatal("the interrupt after the save did not kill")
	}
	c.detach()
}
