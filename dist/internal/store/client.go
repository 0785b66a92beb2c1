package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/goaccel/goaccel/dist/internal/auth"
)

// ErrTimeout is returned when a wait or get did not complete in time.
var ErrTimeout = errors.New("timed out")

// LostError reports a rank the store recorded as lost.
type LostError struct {
	Rank   int
	Reason string
}

func (e *LostError) Error() string { return fmt.Sprintf("rank %d lost: %s", e.Rank, e.Reason) }

// Client talks to a Server. Its methods are safe for concurrent use; calls
// are serialised on one connection, re-established after a cancelled call.
type Client struct {
	addr  string
	token []byte
	rank  int

	mu       sync.Mutex
	conn     net.Conn
	r        *bufio.Reader
	w        *bufio.Writer
	lastUsed time.Time     // when conn last answered
	maxIdle  time.Duration // redial a connection idle this long (the server closes idle ones)

	live net.Conn // the registered liveness connection, if any
}

// Dial connects to the store at addr, retrying until ctx ends (the server may
// not be up yet). rank is only used in the handshake for diagnostics.
func Dial(ctx context.Context, addr string, token []byte, rank int) (*Client, error) {
	c := &Client{addr: addr, token: token, rank: rank, maxIdle: clientMaxIdle}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.connectLocked(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Client) dial(ctx context.Context) (net.Conn, error) {
	var lastErr error
	delay := 10 * time.Millisecond
	for {
		d := net.Dialer{Timeout: 5 * time.Second}
		conn, err := d.DialContext(ctx, "tcp", c.addr)
		if err == nil {
			if err = auth.Connect(conn, c.token, purpose, c.rank); err == nil {
				return conn, nil
			}
			conn.Close()
			if errors.Is(err, auth.ErrBadToken) {
				return nil, fmt.Errorf("store %s refused this process's token (every rank needs the same GOACCEL_STORE_TOKEN): %w", c.addr, err)
			}
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("store %s not reachable (%v): %w", c.addr, lastErr, ctx.Err())
		case <-time.After(delay):
		}
		if delay < 500*time.Millisecond {
			delay *= 2
		}
	}
}

func (c *Client) connectLocked(ctx context.Context) error {
	conn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	c.conn, c.r, c.w = conn, bufio.NewReader(conn), bufio.NewWriter(conn)
	c.lastUsed = time.Now()
	return nil
}

// do runs one request under the lock; write fills the request, read parses
// the answer. A cancelled context breaks the connection, which is re-dialled
// on the next call.
func (c *Client) do(ctx context.Context, write func(w *bufio.Writer), read func(r *bufio.Reader) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil && time.Since(c.lastUsed) > c.maxIdle {
		// The server drops connections idle for twice as long; start afresh.
		c.conn.Close()
		c.conn = nil
	}
	if c.conn == nil {
		if err := c.connectLocked(ctx); err != nil {
			return err
		}
	}
	conn := c.conn
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	write(c.w)
	err := c.w.Flush()
	if err == nil {
		err = read(c.r)
	}
	if !stop() && err == nil {
		// The context ended just as the answer arrived: the deadline that
		// breaks a blocked read may be set, or about to be, on a connection
		// that is otherwise fine. Keep the answer, drop the connection.
		conn.Close()
		c.conn = nil
		return nil
	}
	if err != nil {
		conn.Close()
		c.conn = nil
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("store %s: %w", c.addr, err)
	}
	c.lastUsed = time.Now()
	return nil
}

func status(r *bufio.Reader) error {
	st, err := r.ReadByte()
	if err != nil {
		return err
	}
	switch st {
	case stOK:
		return nil
	case stTimeout:
		return ErrTimeout
	case stLost:
		rank, err := readInt(r)
		if err != nil {
			return err
		}
		reason, err := readBytes(r)
		if err != nil {
			return err
		}
		return &LostError{Rank: int(rank), Reason: string(reason)}
	case stError:
		msg, err := readBytes(r)
		if err != nil {
			return err
		}
		return errors.New(string(msg))
	}
	return fmt.Errorf("bad status byte %d", st)
}

// answer wraps status so that protocol-level answers (timeout, lost) are
// returned without breaking the connection.
func answer(dst *error, more func(r *bufio.Reader) error) func(r *bufio.Reader) error {
	return func(r *bufio.Reader) error {
		err := status(r)
		var lost *LostError
		if errors.Is(err, ErrTimeout) || errors.As(err, &lost) {
			*dst = err
			return nil
		}
		if err != nil || more == nil {
			return err
		}
		return more(r)
	}
}

// Set stores value under key.
func (c *Client) Set(ctx context.Context, key string, value []byte) error {
	var res error
	err := c.do(ctx, func(w *bufio.Writer) {
		w.WriteByte(opSet)
		writeBytes(w, []byte(key))
		writeBytes(w, value)
	}, answer(&res, nil))
	if err != nil {
		return err
	}
	return res
}

// Delete removes key.
func (c *Client) Delete(ctx context.Context, key string) error {
	var res error
	err := c.do(ctx, func(w *bufio.Writer) {
		w.WriteByte(opDelete)
		writeBytes(w, []byte(key))
	}, answer(&res, nil))
	if err != nil {
		return err
	}
	return res
}

// Add adds delta to the integer stored under key (0 when absent) and returns the result.
func (c *Client) Add(ctx context.Context, key string, delta int64) (int64, error) {
	var v int64
	var res error
	err := c.do(ctx, func(w *bufio.Writer) {
		w.WriteByte(opAdd)
		writeBytes(w, []byte(key))
		writeInt(w, delta)
	}, answer(&res, func(r *bufio.Reader) (err error) { v, err = readInt(r); return }))
	if err != nil {
		return 0, err
	}
	return v, res
}

// Check reports whether all keys are present, without waiting.
func (c *Client) Check(ctx context.Context, keys ...string) (bool, error) {
	var ok byte
	var res error
	err := c.do(ctx, func(w *bufio.Writer) {
		w.WriteByte(opCheck)
		writeKeys(w, keys)
	}, answer(&res, func(r *bufio.Reader) (err error) { ok, err = r.ReadByte(); return }))
	if err != nil {
		return false, err
	}
	return ok == 1, res
}

func writeKeys(w *bufio.Writer, keys []string) {
	writeInt(w, int64(len(keys)))
	for _, k := range keys {
		writeBytes(w, []byte(k))
	}
}

// waitMillis turns ctx's deadline into the server-side timeout.
func waitMillis(ctx context.Context) int64 {
	if d, ok := ctx.Deadline(); ok {
		ms := time.Until(d).Milliseconds()
		if ms < 1 {
			ms = 1
		}
		return ms
	}
	return (24 * time.Hour).Milliseconds()
}

// Get waits until key is present and returns its value. It fails with a
// *LostError when a registered rank is lost while waiting.
func (c *Client) Get(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	var res error
	err := c.do(ctx, func(w *bufio.Writer) {
		w.WriteByte(opGet)
		writeKeys(w, []string{key})
		writeInt(w, waitMillis(ctx))
	}, answer(&res, func(r *bufio.Reader) (err error) { v, err = readBytes(r); return }))
	if err != nil {
		return nil, err
	}
	if res != nil {
		return nil, fmt.Errorf("get %q: %w", key, res)
	}
	return v, nil
}

// Wait waits until all keys are present.
func (c *Client) Wait(ctx context.Context, keys ...string) error {
	var res error
	err := c.do(ctx, func(w *bufio.Writer) {
		w.WriteByte(opWait)
		writeKeys(w, keys)
		writeInt(w, waitMillis(ctx))
	}, answer(&res, nil))
	if err != nil {
		return err
	}
	if res != nil {
		return fmt.Errorf("wait for %d keys: %w", len(keys), res)
	}
	return nil
}

// Register opens the liveness connection for rank: if this process dies, the
// store records the rank as lost and fails every waiter.
func (c *Client) Register(ctx context.Context, rank int) error {
	conn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(conn)
	w.WriteByte(opRegister)
	writeInt(w, int64(rank))
	if err := w.Flush(); err != nil {
		conn.Close()
		return fmt.Errorf("register rank %d: %w", rank, err)
	}
	if err := status(bufio.NewReader(conn)); err != nil {
		conn.Close()
		return fmt.Errorf("register rank %d: %w", rank, err)
	}
	c.mu.Lock()
	c.live = conn
	c.mu.Unlock()
	return nil
}

// Close says goodbye on the liveness connection and closes the client.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live != nil {
		c.live.SetWriteDeadline(time.Now().Add(time.Second))
		c.live.Write([]byte{opBye})
		c.live.Close()
		c.live = nil
	}
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
	return nil
}

// LocalIP is the address this client reaches the store from: the interface
// peers on other hosts can reach this process on.
func (c *Client) LocalIP() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return ""
	}
	host, _, _ := net.SplitHostPort(c.conn.LocalAddr().String())
	return host
}
