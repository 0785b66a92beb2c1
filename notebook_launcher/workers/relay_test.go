package workers

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
)

func TestRelayPrefixesEveryLineAndKeepsTheTail(t *testing.T) {
	for _, tc := range []struct {
		in, prefix, want string
		tail             []string
		panicLine        string
	}{
		{"a\nb\n", "[rank 1] ", "[rank 1] a\n[rank 1] b\n", []string{"a", "b"}, ""},
		{"no newline", "", "no newline\n", []string{"no newline"}, ""},
		{"10%\r50%\rdone\n", "[rank 2] ", "[rank 2] 10%\r[rank 2] 50%\r[rank 2] done\n", []string{"done"}, ""},
		{"panic: boom\n\ngoroutine 1\nx\ny\nz\n", "", "panic: boom\n\ngoroutine 1\nx\ny\nz\n", []string{"x", "y", "z"}, "panic: boom"},
	} {
		var out bytes.Buffer
		var mu sync.Mutex
		var wg sync.WaitGroup
		tail := newTail(3)
		wg.Add(1)
		relay(strings.NewReader(tc.in), &out, tc.prefix, &mu, tail, nil, &wg)
		if out.String() != tc.want {
			t.Errorf("relay(%q) wrote %q; want %q", tc.in, out.String(), tc.want)
		}
		if got := strings.Join(tail.lines(), "|"); got != strings.Join(tc.tail, "|") {
			t.Errorf("tail of %q = %q; want %q", tc.in, got, tc.tail)
		}
		if tail.panicLine() != tc.panicLine {
			t.Errorf("panic line of %q = %q; want %q", tc.in, tail.panicLine(), tc.panicLine)
		}
	}
}

func TestRelayHandsFramesOverInsteadOfPrintingThem(t *testing.T) {
	var frames bytes.Buffer
	WriteFrame(&frames, []byte(`{"a":1}`))
	in := "loss 0.5\n" + frames.String() + "partial " + frames.String() + "done\n"
	var out bytes.Buffer
	var got []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	relay(strings.NewReader(in), &out, "[rank 1] ", &mu, nil, func(p []byte) { got = append(got, string(p)) }, &wg)
	if want := "[rank 1] loss 0.5\n[rank 1] partial \n[rank 1] done\n"; out.String() != want {
		t.Errorf("printed %q; want %q", out.String(), want)
	}
	if len(got) != 2 || got[0] != `{"a":1}` || got[1] != `{"a":1}` {
		t.Errorf("frames %q; want two {\"a\":1}", got)
	}
	if err := WriteFrame(&out, []byte("two\nlines")); err == nil {
		t.Error("WriteFrame with a newline in the payload: want an error")
	}
}

func TestRunRejectsNoProcessesAndReportsAMissingProgram(t *testing.T) {
	if err := RunGroup(context.Background(), GroupSpec{Path: "/bin/true"}); err == nil || !strings.Contains(err.Error(), "NumProcs") {
		t.Errorf("RunGroup with 0 processes = %v; want an error about NumProcs", err)
	}
	err := RunGroup(context.Background(), GroupSpec{Path: "/nonexistent/prog", NumProcs: 2})
	if err == nil || !strings.Contains(err.Error(), "start rank 0") {
		t.Errorf("RunGroup of a missing program = %v; want an error naming rank 0's start", err)
	}
}
