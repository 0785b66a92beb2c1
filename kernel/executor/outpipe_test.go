package executor

import (
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// testPrefix is the sync marker prefix of the pipes under test.
var testPrefix = syncPrefix("0123456789abcdef")

// chunkReader returns its chunks one Read at a time.
type chunkReader struct{ chunks []string }

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	if c.chunks[0] == "" {
		c.chunks = c.chunks[1:]
	}
	return n, nil
}

func TestOutPipeStripsMarkersSplitAcrossReads(t *testing.T) {
	m := string(syncMarker(testPrefix, 7))
	tests := []struct {
		name   string
		chunks []string
	}{
		{"whole", []string{"ab" + m + "cd"}},
		{"split in prefix", []string{"ab" + m[:3], m[3:] + "cd"}},
		{"split in number", []string{"ab" + m[:len(m)-2], m[len(m)-2:] + "cd"}},
		{"byte by byte", strings.Split("ab"+m+"cd", "")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			p := newOutPipe("stdout", testPrefix, rec.output)
			p.release(7) // the event for marker 7 was already handed on
			p.run(&chunkReader{chunks: tt.chunks})
			if got := rec.stream("stdout"); got != "abcd" {
				t.Fatalf("text = %q", got)
			}
			if !p.waitSync(7, 10*time.Millisecond) {
				t.Fatal("marker 7 not seen")
			}
		})
	}
}

func TestOutPipeHoldsTextAfterAMarkerUntilItsEventIsOut(t *testing.T) {
	rec := &recorder{}
	p := newOutPipe("stdout", testPrefix, rec.output)
	done := make(chan struct{})
	go func() {
		p.run(&chunkReader{chunks: []string{"a" + string(syncMarker(testPrefix, 1)) + "b"}})
		close(done)
	}()
	if !p.waitSync(1, time.Second) {
		t.Fatal("marker not seen")
	}
	time.Sleep(100 * time.Millisecond)
	if got := rec.stream("stdout"); got != "a" {
		t.Fatalf("before release: %q, want only the text before the marker", got)
	}
	p.release(1)
	<-done
	if got := rec.stream("stdout"); got != "ab" {
		t.Fatalf("after release: %q", got)
	}
}

func TestOutPipeNeverSplitsARune(t *testing.T) {
	var got []string
	p := newOutPipe("stdout", testPrefix, func(_, text string) { got = append(got, text) })
	p.mu.Lock()
	p.pending = []byte("héllo 世"[:len("héllo 世")-1])
	p.flushLocked(false)
	p.mu.Unlock()
	if len(got) != 1 || got[0] != "héllo " {
		t.Fatalf("flushed %q", got)
	}
}

func TestOutPipeFlushesLargeOutputInBatches(t *testing.T) {
	var sizes []int
	p := newOutPipe("stdout", testPrefix, func(_, text string) { sizes = append(sizes, len(text)) })
	var chunks []string
	for range 5 {
		chunks = append(chunks, strings.Repeat("x", 4096))
	}
	p.run(&chunkReader{chunks: chunks})
	if len(sizes) < 2 {
		t.Fatalf("20480 bytes in %d messages; want batches of about %d", len(sizes), flushBytes)
	}
}

func TestDescribeExitNamesThePanic(t *testing.T) {
	got := describeExit(nil, io.EOF, "junk\npanic: boom\n\ngoroutine 5 [running]:\n")
	if !strings.Contains(got, "panic: boom") {
		t.Fatal(got)
	}
	// A goroutine's panic the session survived comes before the fatal one.
	got = describeExit(nil, io.EOF, "panic: survived\n\ngoroutine 7 [running]:\npanic: fatal\n\ngoroutine 9 [running]:\n")
	if !strings.Contains(got, "panic: fatal") {
		t.Errorf("describeExit = %q; want the last panic", got)
	}
}

func TestDescribeExitQuotesTheLastStderrLine(t *testing.T) {
	cmd := exec.Command("sh", "-c", "echo 'goaccel: start the interpreter: broken' >&2; exit 1")
	var tail tailWriter
	tail.max = 1024
	cmd.Stderr = &tail
	err := cmd.Run()
	got := describeExit(cmd.ProcessState, err, tail.String())
	if !strings.Contains(got, "status 1") || !strings.Contains(got, "start the interpreter: broken") {
		t.Fatal(got)
	}
}
