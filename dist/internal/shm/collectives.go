//go:build linux || darwin

package shm

import (
	"context"
	"sync/atomic"
)

// begin publishes this call's kind and length for checkLengths.
func (g *Region) begin(kind uint64, n int) {
	g.calls++
	atomic.StoreUint64(g.lenPtr(g.rank), kind<<56|uint64(n))
}

// sync arrives and waits for every rank; with check it also compares lengths.
func (g *Region) sync(ctx context.Context, check bool) error {
	if err := g.waitAll(ctx, g.arrive()); err != nil {
		return err
	}
	if check {
		return g.checkLengths()
	}
	return nil
}

// AllGather writes every rank's send into recv, rank-major. Each round stages
// one slot's worth of every rank's send; one wait per round suffices because
// a half is rewritten only two rounds later, after every rank has arrived
// once more (having finished reading it).
func (g *Region) AllGather(ctx context.Context, send, recv []byte) error {
	c := len(send)
	copy(recv[g.rank*c:(g.rank+1)*c], send)
	g.begin(kindAllGather, c)
	for off := 0; off < c; off += g.slot {
		k := min(g.slot, c-off)
		h := g.round % 2
		g.round++
		copy(g.data(g.rank, h), send[off:off+k])
		if err := g.sync(ctx, off == 0); err != nil {
			return err
		}
		for j := 0; j < g.size; j++ {
			if j != g.rank {
				copy(recv[j*c+off:j*c+off+k], g.data(j, h)[:k])
			}
		}
	}
	return nil
}

// Broadcast copies root's buf to every rank through root's slot.
func (g *Region) Broadcast(ctx context.Context, buf []byte, root int) error {
	g.begin(kindBroadcast, len(buf))
	for off := 0; off < len(buf); off += g.slot {
		k := min(g.slot, len(buf)-off)
		h := g.round % 2
		g.round++
		if g.rank == root {
			copy(g.data(root, h), buf[off:off+k])
		}
		if err := g.sync(ctx, off == 0); err != nil {
			return err
		}
		if g.rank != root {
			copy(buf[off:off+k], g.data(root, h)[:k])
		}
	}
	return nil
}

// Barrier returns once every rank has called it.
func (g *Region) Barrier(ctx context.Context) error {
	g.begin(kindBarrier, 0)
	return g.sync(ctx, true)
}
