package mesh

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/goaccel/goaccel/dist/internal/peerloss"
)

// Send writes b to peer as one frame. It fails with the group's loss, with a
// *PeerError for that peer if the write breaks, or with ctx's error.
func (m *Mesh) Send(ctx context.Context, to int, b []byte) error {
	if err := m.Err(); err != nil {
		return err
	}
	p := m.peers[to]
	if e := p.gone.Load(); e != nil {
		return e
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.poisoned {
		return fmt.Errorf("connection to rank %d is unusable after an interrupted send", to)
	}
	dl, _ := ctx.Deadline()
	p.conn.SetWriteDeadline(dl)
	stop := context.AfterFunc(ctx, func() { p.conn.SetWriteDeadline(time.Now()) })
	err := m.writeFrameLocked(p, kindData, b)
	stop()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("send to rank %d: %w", to, ctx.Err())
	}
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if e := m.Err(); e != nil {
			return e
		}
		return fmt.Errorf("send to rank %d: %w", to, context.DeadlineExceeded)
	}
	if m.closing.Load() {
		return fmt.Errorf("send to rank %d: %w", to, ErrClosed)
	}
	m.fail(m.lostPeer(to, peerloss.Reason(err, p.silence())+" (while sending)", -1))
	return m.Err()
}

// Recv returns the next frame from peer. Pass the buffer to Release when done.
func (m *Mesh) Recv(ctx context.Context, from int) ([]byte, error) {
	p := m.peers[from]
	for {
		p.qmu.Lock()
		if len(p.q) > 0 {
			b := p.q[0]
			p.q[0] = nil
			p.q = p.q[1:]
			p.qmu.Unlock()
			return b, nil
		}
		p.qmu.Unlock()
		if e := p.gone.Load(); e != nil {
			return nil, e
		}
		select {
		case <-p.notify:
		case <-m.lost:
			return nil, m.Err()
		case <-m.done:
			return nil, ErrClosed
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for rank %d: %w", from, ctx.Err())
		}
	}
}

// RecvInto receives the next frame from peer into dst, which must have the
// frame's exact length.
func (m *Mesh) RecvInto(ctx context.Context, from int, dst []byte) error {
	b, err := m.Recv(ctx, from)
	if err != nil {
		return err
	}
	defer Release(b)
	if len(b) != len(dst) {
		return fmt.Errorf("rank %d sent %d bytes where %d were expected (ranks called different collectives or sizes)", from, len(b), len(dst))
	}
	copy(dst, b)
	return nil
}
