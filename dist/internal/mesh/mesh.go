package mesh

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goaccel/goaccel/dist/internal/peerloss"
)

// Frame kinds.
const (
	kindData uint32 = iota
	kindBye
	kindAbort
)

const headerLen = 8

// A peer whose host vanishes (a cut link, a power loss) closes nothing; its
// connections are declared lost after keepAliveIdle of silence plus
// keepAliveCount unanswered probes keepAliveInterval apart, or after as
// long without an acknowledgement of sent data.
const (
	keepAliveIdle     = 5 * time.Second
	keepAliveInterval = 2 * time.Second
	keepAliveCount    = 3
)

// SegmentSize is the largest frame the pooled buffers hold; collectives send
// big buffers as a pipeline of frames of this size.
const SegmentSize = 1 << 20

var pool = sync.Pool{New: func() any { b := make([]byte, SegmentSize); return &b }}

// PeerError says which rank was lost, on which host, and why.
type PeerError struct {
	Rank     int
	Host     string // the lost rank's host, as the group names it ("" if unknown)
	Reason   string
	Reporter int // the rank that reported it, or -1 when seen directly
}

func (e *PeerError) Error() string {
	s := fmt.Sprintf("rank %d lost", e.Rank)
	if e.Host != "" {
		s += " (host " + e.Host + ")"
	}
	s += ": " + e.Reason
	if e.Reporter >= 0 {
		s += fmt.Sprintf(" (reported by rank %d)", e.Reporter)
	}
	return s
}

// Mesh is the set of connections of one rank.
type Mesh struct {
	rank, size int
	peers      []*peer
	hosts      []string // each rank's host, for errors

	lost    chan struct{}
	failed  atomic.Pointer[PeerError]
	ended   chan struct{} // closed on the first loss or goodbye, or by Close
	done    chan struct{} // closed by Close
	endOnce sync.Once
	endErr  *PeerError
	closing atomic.Bool
	wg      sync.WaitGroup
	notices sync.WaitGroup // loss notices still being written to peers
}

type peer struct {
	rank     int
	conn     net.Conn
	wmu      sync.Mutex
	poisoned bool // a write was cut mid-frame; guarded by wmu

	qmu    sync.Mutex
	q      [][]byte
	notify chan struct{}
	gone   atomic.Pointer[PeerError] // set when the peer said goodbye

	heard atomic.Int64 // when the last bytes came from the peer (UnixNano)
}

// silence is how long the peer has sent nothing.
func (p *peer) silence() time.Duration {
	return time.Since(time.Unix(0, p.heard.Load()))
}

// Rank is this process's rank.
func (m *Mesh) Rank() int { return m.rank }

// Size is the number of ranks.
func (m *Mesh) Size() int { return m.size }

// Lost is closed when any peer is lost; Err then says which.
func (m *Mesh) Lost() <-chan struct{} { return m.lost }

// Ended is closed when any peer is lost or has closed its group; EndErr
// then says which. Waits that cannot be satisfied by a departed peer end on it.
func (m *Mesh) Ended() <-chan struct{} { return m.ended }

// ErrClosed ends waits in progress when this rank closes its mesh.
var ErrClosed = errors.New("group closed by this process")

// EndErr returns the loss, or else the first goodbye (ErrClosed if this rank
// closed first), once Ended is closed.
func (m *Mesh) EndErr() error {
	if e := m.failed.Load(); e != nil {
		return e
	}
	select {
	case <-m.ended:
		if m.endErr == nil {
			return ErrClosed
		}
		return m.endErr
	default:
		return nil
	}
}

func (m *Mesh) end(e *PeerError) {
	m.endOnce.Do(func() {
		m.endErr = e
		close(m.ended)
	})
}

// Err returns the loss that broke the group, or nil.
func (m *Mesh) Err() error {
	if e := m.failed.Load(); e != nil {
		return e
	}
	return nil
}

// lostPeer is the loss of rank r, seen by this rank or reported by another.
func (m *Mesh) lostPeer(r int, reason string, reporter int) *PeerError {
	e := &PeerError{Rank: r, Reason: reason, Reporter: reporter}
	if r >= 0 && r < len(m.hosts) {
		e.Host = m.hosts[r]
	}
	return e
}

// newMesh starts reading from every connection; hosts names each rank's host
// in errors (the connection's remote address where it is empty).
func newMesh(rank, size int, conns []net.Conn, hosts []string) *Mesh {
	m := &Mesh{rank: rank, size: size, peers: make([]*peer, size), hosts: make([]string, size), lost: make(chan struct{}), ended: make(chan struct{}), done: make(chan struct{})}
	copy(m.hosts, hosts)
	for r, c := range conns {
		if c != nil && m.hosts[r] == "" {
			if h, _, err := net.SplitHostPort(c.RemoteAddr().String()); err == nil {
				m.hosts[r] = h
			}
		}
	}
	for r, c := range conns {
		if c == nil {
			continue
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetNoDelay(true)
			tc.SetKeepAliveConfig(net.KeepAliveConfig{Enable: true, Idle: keepAliveIdle, Interval: keepAliveInterval, Count: keepAliveCount})
			// Keep-alive probes only run on an idle connection; sent data
			// that a vanished peer never acknowledges is bounded the same way.
			setUserTimeout(tc, keepAliveIdle+keepAliveCount*keepAliveInterval)
			tc.SetReadBuffer(4 << 20)
			tc.SetWriteBuffer(4 << 20)
		}
		p := &peer{rank: r, conn: c, notify: make(chan struct{}, 1)}
		p.heard.Store(time.Now().UnixNano())
		m.peers[r] = p
		m.wg.Add(1)
		go m.readLoop(p)
	}
	return m
}

func (m *Mesh) readLoop(p *peer) {
	defer m.wg.Done()
	var hdr [headerLen]byte
	for {
		if _, err := m.readFrom(p, hdr[:]); err != nil {
			if !m.closing.Load() {
				m.fail(m.lostPeer(p.rank, peerloss.Reason(err, p.silence()), -1))
			}
			return
		}
		kind := binary.LittleEndian.Uint32(hdr[:4])
		n := int(binary.LittleEndian.Uint32(hdr[4:]))
		var buf []byte
		if n <= SegmentSize {
			buf = (*pool.Get().(*[]byte))[:n]
		} else {
			buf = make([]byte, n)
		}
		if _, err := m.readFrom(p, buf); err != nil {
			if !m.closing.Load() {
				m.fail(m.lostPeer(p.rank, peerloss.Reason(err, p.silence())+" (mid-message)", -1))
			}
			return
		}
		switch kind {
		case kindData:
			p.qmu.Lock()
			p.q = append(p.q, buf)
			p.qmu.Unlock()
			select {
			case p.notify <- struct{}{}:
			default:
			}
		case kindBye:
			// Not a failure by itself: the peer may have finished its last
			// collective before this rank. Waiting on it from now on fails.
			e := m.lostPeer(p.rank, "it closed its process group", -1)
			p.gone.Store(e)
			select {
			case p.notify <- struct{}{}:
			default:
			}
			m.end(e)
			return
		case kindAbort:
			m.fail(m.lostPeer(int(int32(binary.LittleEndian.Uint32(buf))), string(buf[4:]), p.rank))
		}
	}
}

// readFrom fills b from p's connection, noting when bytes last came.
func (m *Mesh) readFrom(p *peer, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		k, err := p.conn.Read(b[n:])
		n += k
		if k > 0 {
			p.heard.Store(time.Now().UnixNano())
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// fail records the first loss, tells the other peers and wakes every
// waiter. The notices are under way (counted by m.notices) before any waiter
// can see the loss, so WaitNotices after a failed wait covers them.
func (m *Mesh) fail(e *PeerError) {
	if !m.failed.CompareAndSwap(nil, e) {
		return
	}
	msg := make([]byte, 4+len(e.Reason))
	binary.LittleEndian.PutUint32(msg, uint32(int32(e.Rank)))
	copy(msg[4:], e.Reason)
	for _, p := range m.peers {
		if p == nil || p.rank == e.Rank || p.rank == e.Reporter {
			continue
		}
		m.notices.Add(1)
		go func() {
			defer m.notices.Done()
			// An in-flight send finishes or times out first; give it a bound.
			p.conn.SetWriteDeadline(time.Now().Add(noticeTimeout))
			p.wmu.Lock()
			defer p.wmu.Unlock()
			if !p.poisoned {
				p.conn.SetWriteDeadline(time.Now().Add(noticeTimeout))
				m.writeFrameLocked(p, kindAbort, msg)
			}
		}()
	}
	close(m.lost)
	m.end(e)
}

// noticeTimeout bounds each write of a loss notice (and the wait for a send
// in flight on the same connection).
const noticeTimeout = 2 * time.Second

// WaitNotices returns once the notices of the loss this rank recorded have
// been handed to the kernel (or given up on, after at most twice
// noticeTimeout). A process that ends on the loss's error should call it
// first (Group does, before it returns the error): otherwise its peers see
// only that it exited, and blame it instead of the rank really lost.
func (m *Mesh) WaitNotices() { m.notices.Wait() }

func (m *Mesh) writeFrameLocked(p *peer, kind uint32, b []byte) error {
	var hdr [headerLen]byte
	binary.LittleEndian.PutUint32(hdr[:4], kind)
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(b)))
	bufs := net.Buffers{hdr[:], b}
	_, err := bufs.WriteTo(p.conn)
	if err != nil {
		p.poisoned = true
	}
	return err
}

// Release returns a received frame's buffer to the pool.
func Release(b []byte) {
	if cap(b) == SegmentSize {
		b = b[:SegmentSize]
		pool.Put(&b)
	}
}

// Close says goodbye to every peer and closes the connections.
// Waits in progress end with ErrClosed.
func (m *Mesh) Close() error {
	if m.closing.Swap(true) {
		return nil
	}
	close(m.done)
	m.end(nil)
	// A loss notice must reach the other peers before their connections
	// close, or they would blame this rank (which merely exited after the
	// loss) instead of the rank that was really lost. Writes are bounded by
	// their deadlines.
	m.notices.Wait()
	var wg sync.WaitGroup
	for _, p := range m.peers {
		if p == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.conn.SetWriteDeadline(time.Now().Add(time.Second))
			p.wmu.Lock()
			if !p.poisoned && m.failed.Load() == nil {
				p.conn.SetWriteDeadline(time.Now().Add(time.Second))
				m.writeFrameLocked(p, kindBye, nil)
			}
			p.wmu.Unlock()
			// Half-close: what this rank wrote (a goodbye or a loss notice)
			// is delivered before EOF, and the read loop keeps draining the
			// peer's data. Closing outright with unread data would reset the
			// connection, and the peer could lose the notice.
			if hc, ok := p.conn.(interface{ CloseWrite() error }); ok {
				hc.CloseWrite()
			}
		}()
	}
	wg.Wait()
	drained := make(chan struct{})
	go func() {
		m.wg.Wait()
		close(drained)
	}()
	select { // the peers close their side, or not in time
	case <-drained:
	case <-time.After(closeDrain):
	}
	for _, p := range m.peers {
		if p != nil {
			p.conn.Close()
		}
	}
	m.wg.Wait()
	return nil
}

// closeDrain bounds how long Close waits for peers to close their side.
const closeDrain = 500 * time.Millisecond
