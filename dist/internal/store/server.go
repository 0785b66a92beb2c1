package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/goaccel/goaccel/dist/internal/auth"
	"github.com/goaccel/goaccel/dist/internal/peerloss"
	"github.com/goaccel/goaccel/internal/ratelog"
)

// Bounds on what an authenticated connection may hold: a request connection
// that sends nothing for idleTimeout is closed (clients redial after
// clientMaxIdle, well before), and a request must arrive whole within
// requestTimeout of its first byte. A registered rank's liveness connection
// is idle by design and has neither.
const (
	idleTimeout    = 10 * time.Minute
	clientMaxIdle  = idleTimeout / 2
	requestTimeout = time.Minute
)

// Server hosts the store. Create it with Serve.
type Server struct {
	ln    net.Listener
	token []byte
	log   *slog.Logger

	idleTimeout, requestTimeout time.Duration
	acceptWarn, refuseWarn      ratelog.Limiter

	mu      sync.Mutex
	data    map[string][]byte
	changed chan struct{} // closed and replaced on every change
	alive   map[int]net.Conn
	lost    map[int]string
	conns   map[net.Conn]struct{}
	closed  bool
	done    chan struct{} // closed by Close
	wg      sync.WaitGroup
}

// Serve listens on addr ("127.0.0.1:0" picks a free port) and serves until Close.
func Serve(addr string, token []byte) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("store: listen on %s: %w", addr, err)
	}
	s := newServer(ln, token)
	s.wg.Add(1)
	go s.acceptLoop()
	return s, nil
}

// newServer returns a Server on ln with the default bounds; the caller
// starts acceptLoop.
func newServer(ln net.Listener, token []byte) *Server {
	return &Server{
		ln: ln, token: token, log: slog.Default(),
		idleTimeout: idleTimeout, requestTimeout: requestTimeout,
		acceptWarn: ratelog.Limiter{Every: 10 * time.Second},
		refuseWarn: ratelog.Limiter{Every: 10 * time.Second},
		data:       map[string][]byte{},
		changed:    make(chan struct{}),
		alive:      map[int]net.Conn{},
		lost:       map[int]string{},
		conns:      map[net.Conn]struct{}{},
		done:       make(chan struct{}),
	}
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Close stops the server and closes every connection.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	err := s.ln.Close()
	s.wg.Wait()
	return err
}

// acceptLoop accepts connections until Close. A failed Accept (too many
// open files during a flood of connections) is retried with a back-off of
// up to a second, and warned about at most once per ten seconds.
func (s *Server) acceptLoop() {
	defer s.wg.Done()
	var delay time.Duration
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			if ok, skipped := s.acceptWarn.Allow(); ok {
				s.log.Warn("dist store: accepting a connection failed; retrying", "err", err, "retry_in", delay, "similar_not_logged", skipped)
			}
			select {
			case <-s.done:
				return
			case <-time.After(delay):
			}
			continue
		}
		delay = 0
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go s.serveConn(c)
	}
}

func (s *Server) forget(c net.Conn) {
	c.Close()
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

func (s *Server) serveConn(c net.Conn) {
	defer s.wg.Done()
	defer s.forget(c)
	if _, err := auth.Accept(c, s.token, purpose); err != nil {
		if ok, skipped := s.refuseWarn.Allow(); ok {
			s.log.Warn("dist store: refused a connection", "err", err, "similar_not_logged", skipped)
		}
		return
	}
	r := bufio.NewReader(c)
	w := bufio.NewWriter(deadlineWriter{c, s.requestTimeout})
	for {
		c.SetReadDeadline(time.Now().Add(s.idleTimeout))
		op, err := r.ReadByte()
		if err != nil {
			return
		}
		c.SetReadDeadline(time.Now().Add(s.requestTimeout))
		if op == opRegister {
			s.liveness(c, r, w)
			return
		}
		if err := s.handle(op, r, w); err != nil {
			return
		}
		if err := w.Flush(); err != nil {
			return
		}
	}
}

// deadlineWriter gives every write to a connection its own deadline, so an
// answer to a client that stopped reading fails instead of blocking.
type deadlineWriter struct {
	c       net.Conn
	timeout time.Duration
}

func (d deadlineWriter) Write(p []byte) (int, error) {
	d.c.SetWriteDeadline(time.Now().Add(d.timeout))
	return d.c.Write(p)
}

// liveness keeps a registered rank's connection until goodbye or EOF.
func (s *Server) liveness(c net.Conn, r *bufio.Reader, w *bufio.Writer) {
	rank64, err := readInt(r)
	if err != nil {
		return
	}
	c.SetReadDeadline(time.Time{}) // idle until goodbye or the rank's death
	rank := int(rank64)
	s.mu.Lock()
	if _, dup := s.alive[rank]; dup {
		s.mu.Unlock()
		w.WriteByte(stError)
		writeBytes(w, []byte("rank "+strconv.Itoa(rank)+" already joined this job (check RANK on every process)"))
		w.Flush()
		return
	}
	s.alive[rank] = c
	s.mu.Unlock()
	joined := time.Now()
	w.WriteByte(stOK)
	w.Flush()
	op, err := r.ReadByte()
	s.mu.Lock()
	delete(s.alive, rank)
	if err != nil || op != opBye {
		reason := "its connection to the store closed without a goodbye"
		if err != nil && !errors.Is(err, net.ErrClosed) {
			// The connection is silent after registration, so a reset here
			// is a host that forgot it, as after a reboot.
			reason = peerloss.Reason(err, time.Since(joined)) + " (its connection to the store)"
		}
		if !s.closed {
			s.lost[rank] = reason
			s.notifyLocked()
		}
	}
	s.mu.Unlock()
}

func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// lostLocked returns the lowest lost rank, if any.
func (s *Server) lostLocked() (int, string, bool) {
	best := -1
	for r := range s.lost {
		if best < 0 || r < best {
			best = r
		}
	}
	if best < 0 {
		return 0, "", false
	}
	return best, s.lost[best], true
}

func (s *Server) handle(op byte, r *bufio.Reader, w *bufio.Writer) error {
	switch op {
	case opSet:
		k, err := readBytes(r)
		if err != nil {
			return err
		}
		v, err := readBytes(r)
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.data[string(k)] = v
		s.notifyLocked()
		s.mu.Unlock()
		return w.WriteByte(stOK)
	case opDelete:
		k, err := readBytes(r)
		if err != nil {
			return err
		}
		s.mu.Lock()
		delete(s.data, string(k))
		s.mu.Unlock()
		return w.WriteByte(stOK)
	case opAdd:
		k, err := readBytes(r)
		if err != nil {
			return err
		}
		d, err := readInt(r)
		if err != nil {
			return err
		}
		s.mu.Lock()
		cur, _ := strconv.ParseInt(string(s.data[string(k)]), 10, 64)
		cur += d
		s.data[string(k)] = []byte(strconv.FormatInt(cur, 10))
		s.notifyLocked()
		s.mu.Unlock()
		w.WriteByte(stOK)
		writeInt(w, cur)
		return nil
	case opCheck:
		keys, err := readKeys(r)
		if err != nil {
			return err
		}
		s.mu.Lock()
		ok := s.hasLocked(keys)
		s.mu.Unlock()
		w.WriteByte(stOK)
		if ok {
			return w.WriteByte(1)
		}
		return w.WriteByte(0)
	case opGet, opWait:
		keys, err := readKeys(r)
		if err != nil {
			return err
		}
		ms, err := readInt(r)
		if err != nil {
			return err
		}
		return s.wait(op, keys, time.Duration(ms)*time.Millisecond, w)
	}
	return fmt.Errorf("unknown op %d", op)
}

func readKeys(r *bufio.Reader) ([]string, error) {
	n, err := readInt(r)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > 1<<20 {
		return nil, fmt.Errorf("bad key count %d", n)
	}
	keys := make([]string, n)
	for i := range keys {
		k, err := readBytes(r)
		if err != nil {
			return nil, err
		}
		keys[i] = string(k)
	}
	return keys, nil
}

func (s *Server) hasLocked(keys []string) bool {
	for _, k := range keys {
		if _, ok := s.data[k]; !ok {
			return false
		}
	}
	return true
}

func (s *Server) wait(op byte, keys []string, timeout time.Duration, w *bufio.Writer) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		s.mu.Lock()
		if s.hasLocked(keys) {
			var v []byte
			if op == opGet {
				v = s.data[keys[0]]
			}
			s.mu.Unlock()
			w.WriteByte(stOK)
			if op == opGet {
				writeBytes(w, v)
			}
			return nil
		}
		if rank, reason, ok := s.lostLocked(); ok {
			s.mu.Unlock()
			w.WriteByte(stLost)
			writeInt(w, int64(rank))
			writeBytes(w, []byte(reason))
			return nil
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return w.WriteByte(stTimeout)
		case <-s.done:
			return net.ErrClosed
		}
	}
}
