package workers

import (
	"bytes"
	"io"
	"sync"
)

// controlQueue bounds the messages waiting for a worker that does not read
// its control pipe: the launcher never blocks on a slow worker (a widget's
// message comes from the kernel's own reader), it drops instead.
const controlQueue = 1024

// controlPipe is the launcher's end of a worker's control pipe: messages
// sent to it reach the worker in order, written by a goroutine of its own,
// without ever blocking the sender.
type controlPipe struct {
	w io.Writer
	q chan []byte

	mu     sync.Mutex
	closed bool
}

func newControlPipe(w io.Writer) *controlPipe {
	p := &controlPipe{w: w, q: make(chan []byte, controlQueue)}
	go p.drain()
	return p
}

// send queues payload, which must not contain a newline, for the worker.
// It reports false when the worker has exited or reads too slowly (the
// message is dropped).
func (p *controlPipe) send(payload []byte) bool {
	if bytes.IndexByte(payload, '\n') >= 0 {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	select {
	case p.q <- payload:
		return true
	default:
		return false
	}
}

func (p *controlPipe) drain() {
	for m := range p.q {
		if _, err := p.w.Write(append(m[:len(m):len(m)], '\n')); err != nil {
			break // the worker is gone: the rest is dropped
		}
	}
	for range p.q {
	}
}

// close ends the pipe once its worker exited (RunGroup closes the file).
func (p *controlPipe) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		close(p.q)
	}
}
