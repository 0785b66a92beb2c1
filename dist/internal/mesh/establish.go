package mesh

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/goaccel/goaccel/dist/internal/auth"
	"github.com/goaccel/goaccel/internal/ratelog"
)

const purpose = "goaccel-mesh-v1"

// Establish connects rank to every other rank: it accepts from higher ranks
// on ln and dials lower ranks at addrs[r]. hosts[r], when given, names rank
// r's host in the errors of a loss. Connections with a wrong token or
// an unexpected rank are refused and do not count. Each accepted connection
// authenticates on its own goroutine (within auth's handshake timeout), so
// connections that stay silent cannot delay the peers behind them. ln is
// closed on return.
func Establish(ctx context.Context, rank, size int, token []byte, ln net.Listener, addrs, hosts []string) (*Mesh, error) {
	defer ln.Close()
	conns := make([]net.Conn, size)
	type accepted struct {
		rank int
		conn net.Conn
		err  error
	}
	want := size - 1 - rank
	acc := make(chan accepted) // unbuffered: a connection nobody takes is closed
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	done := make(chan struct{}) // Establish returned: late connections are closed
	defer close(done)
	go func() {
		var mu sync.Mutex
		got := map[int]bool{}
		refused := ratelog.Limiter{Every: 10 * time.Second}
		for {
			c, err := ln.Accept()
			if err != nil {
				select {
				case acc <- accepted{err: err}:
				case <-done:
				}
				return
			}
			go func() {
				r, err := auth.Accept(c, token, purpose)
				mu.Lock()
				if err == nil && (r <= rank || r >= size || got[r]) {
					err = fmt.Errorf("unexpected rank %d", r)
				}
				if err == nil {
					got[r] = true
				}
				mu.Unlock()
				if err != nil {
					if ok, skipped := refused.Allow(); ok {
						slog.Warn("dist: refused a peer connection", "rank", rank, "err", err, "similar_not_logged", skipped)
					}
					c.Close()
					return
				}
				select {
				case acc <- accepted{rank: r, conn: c}:
				case <-done:
					c.Close()
				}
			}()
		}
	}()
	closeAll := func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}
	for r := 0; r < rank; r++ {
		c, err := dialPeer(ctx, addrs[r], token, rank)
		if err != nil {
			closeAll()
			return nil, fmt.Errorf("connect to rank %d at %s: %w", r, addrs[r], err)
		}
		conns[r] = c
	}
	for i := 0; i < want; i++ {
		a := <-acc
		if a.err != nil {
			closeAll()
			if ctx.Err() != nil {
				return nil, fmt.Errorf("waiting for %d higher ranks to connect: %w", want-i, ctx.Err())
			}
			return nil, fmt.Errorf("accept peers: %w", a.err)
		}
		conns[a.rank] = a.conn
	}
	return newMesh(rank, size, conns, hosts), nil
}

func dialPeer(ctx context.Context, addr string, token []byte, rank int) (net.Conn, error) {
	delay := 5 * time.Millisecond
	for {
		d := net.Dialer{Timeout: 5 * time.Second}
		c, err := d.DialContext(ctx, "tcp", addr)
		if err == nil {
			err = auth.Connect(c, token, purpose, rank)
			if err == nil {
				return c, nil
			}
			c.Close()
			if errors.Is(err, auth.ErrBadToken) {
				return nil, err
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%v: %w", err, ctx.Err())
		case <-time.After(delay):
		}
		if delay < 200*time.Millisecond {
			delay *= 2
		}
	}
}
