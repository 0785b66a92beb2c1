//go:build linux

package shm

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/goaccel/goaccel/dist/internal/reduce"
)

// share returns the byte range of rank r's share when n elements of width es
// are split across p ranks.
func share(n, p, r, es int) (int, int) {
	return r * n / p * es, (r + 1) * n / p * es
}

// AllReduce reduces buf across the ranks of the region in place. Every rank
// must call it with the same length, dtype and op.
func (g *Region) AllReduce(ctx context.Context, buf []byte, dt reduce.DType, op reduce.Op) error {
	es := dt.Size()
	if len(buf)%es != 0 {
		return fmt.Errorf("shm: buffer of %d bytes is not whole %d-byte elements", len(buf), es)
	}
	step := g.slot - g.slot%es
	// Publish the length with the first round's arrival so a rank called
	// with a different size is reported instead of corrupting the rounds.
	g.begin(kindAllReduce, len(buf))
	for off := 0; off < len(buf); off += step {
		seg := buf[off:min(len(buf), off+step)]
		if err := g.round1(ctx, seg, dt, op); err != nil {
			return err
		}
	}
	return nil
}

func (g *Region) round1(ctx context.Context, seg []byte, dt reduce.DType, op reduce.Op) error {
	h := g.round % 2
	g.round++
	es := dt.Size()
	n := len(seg) / es
	lo, hi := share(n, g.size, g.rank, es)
	mine := g.data(g.rank, h)
	// Stage what the others reduce; our own share stays in seg.
	copy(mine[:lo], seg[:lo])
	copy(mine[hi:len(seg)], seg[hi:])
	if err := g.waitAll(ctx, g.arrive()); err != nil {
		return err
	}
	if err := g.checkLengths(); err != nil {
		return err
	}
	// Reduce the peers' staged copies into our share in rank order; the
	// last pass also writes the result where the peers will read it.
	last := g.size - 1
	if last == g.rank {
		last--
	}
	for j := 0; j < g.size; j++ {
		switch {
		case j == g.rank:
		case j == last:
			reduce.BytesTo(dt, op, seg[lo:hi], mine[lo:hi], g.data(j, h)[lo:hi])
		default:
			reduce.Bytes(dt, op, seg[lo:hi], g.data(j, h)[lo:hi])
		}
	}
	if err := g.waitAll(ctx, g.arrive()); err != nil {
		return err
	}
	for j := 0; j < g.size; j++ {
		if j != g.rank {
			a, b := share(n, g.size, j, es)
			copy(seg[a:b], g.data(j, h)[a:b])
		}
	}
	return nil
}

// Kinds of call, published with the length so that ranks calling different
// collectives are told so instead of exchanging garbage.
const (
	kindAllReduce uint64 = iota + 1
	kindAllGather
	kindBroadcast
	kindBarrier
)

var kindNames = map[uint64]string{kindAllReduce: "all-reduce", kindAllGather: "all-gather", kindBroadcast: "broadcast", kindBarrier: "barrier"}

// checkLengths compares the call kind and length every rank published.
func (g *Region) checkLengths() error {
	mine := atomic.LoadUint64(g.lenPtr(g.rank))
	for j := 0; j < g.size; j++ {
		if v := atomic.LoadUint64(g.lenPtr(j)); v != mine {
			return fmt.Errorf("local rank %d called %s of %d bytes where local rank %d called %s of %d bytes: every rank must call the same collectives with the same lengths",
				j, kindNames[v>>56], v&(1<<56-1), g.rank, kindNames[mine>>56], mine&(1<<56-1))
		}
	}
	return nil
}
