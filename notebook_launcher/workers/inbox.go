package workers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
)

// EnvInbox names the file descriptor on which a worker started with an
// inbox (GroupSpec.Inboxes) reads what its launcher sends it: one frame a
// line (ReadInbox).
const EnvInbox = "GOACCEL_WORKER_INBOX"

// inboxQueue bounds the frames waiting for a worker that does not read: the
// launcher never blocks on a slow worker, it drops instead.
const inboxQueue = 1024

// Inbox is the launcher's end of a worker's inbox: frames sent to it reach
// the worker in order, on its own goroutine, without ever blocking the
// sender.
type Inbox struct {
	rank int
	w    *os.File
	q    chan []byte

	mu     sync.Mutex
	closed bool
}

func newInbox(rank int, w *os.File) *Inbox {
	in := &Inbox{rank: rank, w: w, q: make(chan []byte, inboxQueue)}
	go in.drain()
	return in
}

// Rank returns the worker's global rank.
func (in *Inbox) Rank() int { return in.rank }

// Send queues payload, which must not contain a newline, for the worker. It
// reports false when the worker has exited or reads too slowly (the frame is
// dropped).
func (in *Inbox) Send(payload []byte) bool {
	if bytes.IndexByte(payload, '\n') >= 0 {
		return false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return false
	}
	select {
	case in.q <- payload:
		return true
	default:
		return false
	}
}

func (in *Inbox) drain() {
	for p := range in.q {
		if _, err := in.w.Write(append(p, '\n')); err != nil {
			break // the worker is gone: the rest is dropped
		}
	}
	in.w.Close()
	for range in.q {
	}
}

// close ends the inbox once its worker exited.
func (in *Inbox) close() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.closed {
		in.closed = true
		close(in.q)
	}
}

// ReadInbox calls fn with each frame the launcher sends this worker, until
// the launcher closes the inbox; it returns at once (nil) when the process
// was started without one. It is the worker's side of GroupSpec.Inboxes.
func ReadInbox(fn func(payload []byte)) error {
	v := os.Getenv(EnvInbox)
	if v == "" {
		return nil
	}
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return fmt.Errorf("workers: %s=%q is not a file descriptor", EnvInbox, v)
	}
	f := os.NewFile(uintptr(fd), "inbox")
	if f == nil {
		return fmt.Errorf("workers: inbox fd %d is not open", fd)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("workers: read the inbox: %w", err)
	}
	return nil
}
