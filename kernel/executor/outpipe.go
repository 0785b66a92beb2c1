package executor

import (
	"bytes"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Batching limits for output: flush at least this often while text is
// pending, and at once when this much is pending.
const (
	flushEvery = 50 * time.Millisecond
	flushBytes = 8 << 10
)

// outPipe reads one of the child's output pipes, hands text on in batches,
// and tracks the sync markers the child writes into the stream.
type outPipe struct {
	name   string
	prefix []byte // the child's sync marker prefix (see syncPrefix)
	emit   func(name, text string)

	mu       sync.Mutex
	cond     *sync.Cond
	pending  []byte // text not yet emitted
	reached  uint64 // highest sync marker seen
	released uint64 // highest sync marker whose event was handed on
	eof      bool
	timer    *time.Timer
}

func newOutPipe(name string, prefix []byte, emit func(name, text string)) *outPipe {
	p := &outPipe{name: name, prefix: prefix, emit: emit}
	p.cond = sync.NewCond(&p.mu)
	return p
}

// run reads r until EOF, then flushes and marks the pipe finished.
func (p *outPipe) run(r io.Reader) {
	buf := make([]byte, 32<<10)
	var carry []byte // a possibly partial marker held back from the last read
	for {
		n, err := r.Read(buf)
		if n > 0 {
			carry = p.scan(append(carry, buf[:n]...))
		}
		if err != nil {
			p.mu.Lock()
			p.pending = append(p.pending, carry...)
			p.flushLocked(true)
			p.eof = true
			p.cond.Broadcast()
			p.mu.Unlock()
			return
		}
	}
}

// scan moves text and markers from data into the pipe state and returns the
// tail that may be the start of a marker split across reads.
func (p *outPipe) scan(data []byte) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	pfx := p.prefix
	for {
		i := bytes.Index(data, pfx)
		if i < 0 {
			keep := partialPrefix(data, pfx)
			p.appendLocked(data[:len(data)-keep])
			return append([]byte(nil), data[len(data)-keep:]...)
		}
		end := bytes.IndexByte(data[i+len(pfx):], 0)
		if end < 0 {
			p.appendLocked(data[:i])
			return append([]byte(nil), data[i:]...)
		}
		p.appendLocked(data[:i])
		num := data[i+len(pfx) : i+len(pfx)+end]
		if n, err := strconv.ParseUint(string(num), 10, 64); err == nil {
			p.flushLocked(true)
			if n > p.reached {
				p.reached = n
			}
			p.cond.Broadcast()
			p.holdLocked(n)
		}
		data = data[i+len(pfx)+end+1:]
	}
}

// holdLocked waits until the event announced by marker n was handed on, so
// text printed after a display call never overtakes the display. A child
// that dies between marker and event cannot stall output for long.
func (p *outPipe) holdLocked(n uint64) {
	deadline := time.Now().Add(2 * time.Second)
	t := time.AfterFunc(2*time.Second, func() {
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	})
	defer t.Stop()
	for p.released < n && time.Now().Before(deadline) {
		p.cond.Wait()
	}
}

// release lets text after marker n through (the event for n was handed on).
func (p *outPipe) release(n uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n > p.released {
		p.released = n
		p.cond.Broadcast()
	}
}

// partialPrefix returns the length of the longest suffix of data that is a
// proper prefix of pfx.
func partialPrefix(data, pfx []byte) int {
	for k := min(len(pfx)-1, len(data)); k > 0; k-- {
		if bytes.HasSuffix(data, pfx[:k]) {
			return k
		}
	}
	return 0
}

func (p *outPipe) appendLocked(b []byte) {
	if len(b) == 0 {
		return
	}
	p.pending = append(p.pending, b...)
	if len(p.pending) >= flushBytes {
		p.flushLocked(false)
		return
	}
	if p.timer == nil {
		p.timer = time.AfterFunc(flushEvery, func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.timer = nil
			p.flushLocked(false)
		})
	}
}

// flushLocked emits pending text. Unless all is set it holds back an
// incomplete UTF-8 sequence at the end, so a character is never split
// between two stream messages.
func (p *outPipe) flushLocked(all bool) {
	if p.timer != nil && all {
		p.timer.Stop()
		p.timer = nil
	}
	n := len(p.pending)
	if !all {
		n = completeUTF8(p.pending)
	}
	if n == 0 {
		return
	}
	text := string(p.pending[:n])
	p.pending = append(p.pending[:0], p.pending[n:]...)
	p.emit(p.name, text)
}

// completeUTF8 returns the length of b without a trailing incomplete rune.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// waitSync blocks until marker n was seen, the pipe ended, or timeout passed;
// it reports whether the marker was seen.
func (p *outPipe) waitSync(n uint64, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	t := time.AfterFunc(timeout, func() {
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	})
	defer t.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.reached < n && !p.eof && time.Now().Before(deadline) {
		p.cond.Wait()
	}
	return p.reached >= n
}

// finished reports whether the pipe reached EOF.
func (p *outPipe) waitEOF(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	t := time.AfterFunc(timeout, func() {
		p.mu.Lock()
		p.cond.Broadcast()
		p.mu.Unlock()
	})
	defer t.Stop()
	p.mu.Lock()
	defer p.mu.Unlock()
	for !p.eof && time.Now().Before(deadline) {
		p.cond.Wait()
	}
	return p.eof
}
