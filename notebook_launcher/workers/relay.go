package workers

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
)

// FramePrefix starts a frame: a line a worker writes to its stdout for its
// launcher, not for the user (a display message of a notebook worker).
const FramePrefix = "\x00\x1bgoaccel-frame "

// WriteFrame writes payload, which must not contain a newline, as one frame.
// One Write call carries it, so writers that serialise their Write calls (an
// *os.File) never split it.
func WriteFrame(w io.Writer, payload []byte) error {
	if bytes.IndexByte(payload, '\n') >= 0 {
		return errors.New("workers: a frame's payload must not contain a newline")
	}
	b := make([]byte, 0, len(FramePrefix)+len(payload)+1)
	b = append(append(append(b, FramePrefix...), payload...), '\n')
	_, err := w.Write(b)
	return err
}

// relay copies r to w line by line, prefixing each line, holding mu per line so
// lines from different workers never interleave. A carriage return also ends
// a line, so progress bars redraw in place with their prefix. Lines also go
// to tail when set; frames go to frame when set.
func relay(r io.Reader, w io.Writer, prefix string, mu *sync.Mutex, tail *tailBuffer, frame func([]byte), wg *sync.WaitGroup) {
	defer wg.Done()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	sc.Split(splitLines)
	for sc.Scan() {
		line := sc.Text()
		if frame != nil && strings.HasPrefix(line, FramePrefix) {
			frame([]byte(strings.TrimSuffix(line[len(FramePrefix):], "\n")))
			continue
		}
		mu.Lock()
		_, _ = io.WriteString(w, prefix+line)
		if end := line[len(line)-1]; end != '\n' && end != '\r' {
			_, _ = io.WriteString(w, "\n")
		}
		mu.Unlock()
		if tail != nil && line[len(line)-1] != '\r' {
			tail.add(line)
		}
	}
	if sc.Err() != nil {
		_, _ = io.Copy(w, r) // after a line beyond 64 MB (dropped): pass the rest through unprefixed
	}
}

// splitLines is bufio.ScanLines keeping the terminator, which may be \n or
// \r. A frame that starts in the middle of a line ends the text before it.
func splitLines(data []byte, atEOF bool) (int, []byte, error) {
	i := bytes.IndexAny(data, "\r\n")
	if f := bytes.Index(data, []byte(FramePrefix)); f > 0 && (i < 0 || f < i) {
		return f, data[:f], nil
	}
	if i >= 0 {
		return i + 1, data[:i+1], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// tailBuffer keeps the last n lines written to it, and the last Go panic or
// fatal error line (which a long stack trace would push out of the tail).
type tailBuffer struct {
	mu    sync.Mutex
	n     int
	ring  []string
	panic string
}

func newTail(n int) *tailBuffer { return &tailBuffer{n: n} }

func (t *tailBuffer) add(line string) {
	if l := len(line); l > 0 && line[l-1] == '\n' {
		line = line[:l-1]
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
		t.panic = line
	}
	t.ring = append(t.ring, line)
	if len(t.ring) > t.n {
		t.ring = t.ring[len(t.ring)-t.n:]
	}
}

func (t *tailBuffer) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.ring...)
}

func (t *tailBuffer) panicLine() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.panic
}
