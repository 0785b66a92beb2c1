package workers

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
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

func TestInboxesCarryFramesToEachWorker(t *testing.T) {
	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var got []*Inbox
	err := RunGroup(ctx, GroupSpec{
		Path: "/bin/sh", Args: []string{"-c", `test "$` + EnvInbox + `" = 3 && read a <&3 && read b <&3 && echo "got $a $b"`},
		NumProcs: 2, Stdout: &out,
		Inboxes: func(inboxes []*Inbox) {
			got = inboxes
			for _, in := range inboxes {
				if !in.Send([]byte(fmt.Sprintf("hello-%d", in.Rank()))) || !in.Send([]byte("bye")) {
					t.Errorf("Send to rank %d failed", in.Rank())
				}
				if in.Send([]byte("two\nlines")) {
					t.Error("a frame with a newline was accepted")
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
	if len(got) != 2 || got[0].Send([]byte("late")) {
		t.Fatal("an inbox still takes frames after its worker exited")
	}
}

func TestReadInboxWithoutOneReturnsAtOnce(t *testing.T) {
	t.Setenv(EnvInbox, "")
	if err := ReadInbox(func([]byte) { t.Fatal("a frame without an inbox") }); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvInbox, "x")
	if err := ReadInbox(func([]byte) {}); err == nil {
		t.Fatal("a bad inbox descriptor was accepted")
	}
}
