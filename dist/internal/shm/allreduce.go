//go:build linux || darwin

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
	return g.AllReduceV(ctx, [][]byte{buf}, dt, op, 1)
}

// AllReduceV reduces the concatenation of bufs across the ranks in place,
// without copying the buffers into one, and multiplies the result by scale
// (1: none; 1/size with Sum gives the mean, each product rounded to dt). Every
// rank must call it with the same total length, dtype, op and scale; each
// buffer must hold whole elements.
func (g *Region) AllReduceV(ctx context.Context, bufs [][]byte, dt reduce.DType, op reduce.Op, scale float64) error {
	es := dt.Size()
	v := vec(bufs)
	n := 0
	for i, b := range bufs {
		if len(b)%es != 0 {
			return fmt.Errorf("shm: buffer %d of %d bytes is not whole %d-byte elements", i, len(b), es)
		}
		n += len(b)
	}
	step := g.slot - g.slot%es
	// Publish the length with the first round's arrival so a rank called
	// with a different size is reported instead of corrupting the rounds.
	g.begin(kindAllReduce, n)
	for off := 0; off < n; off += step {
		if err := g.round1(ctx, v, off, min(n, off+step), dt, op, scale); err != nil {
			return err
		}
	}
	return nil
}

// vec is a list of buffers read as their concatenation.
type vec [][]byte

// each calls fn for the pieces of bytes [lo, hi) of the concatenation, with
// each piece's offset from lo.
func (v vec) each(lo, hi int, fn func(part []byte, at int)) {
	if lo >= hi {
		return
	}
	start := 0
	for _, b := range v {
		end := start + len(b)
		if end > lo && start < hi {
			a, z := max(lo, start), min(hi, end)
			fn(b[a-start:z-start], a-lo)
		}
		if end >= hi {
			return
		}
		start = end
	}
}

// round1 all-reduces bytes [from, to) of v (at most one slot).
func (g *Region) round1(ctx context.Context, v vec, from, to int, dt reduce.DType, op reduce.Op, scale float64) error {
	h := g.round % 2
	g.round++
	es := dt.Size()
	n := (to - from) / es
	lo, hi := share(n, g.size, g.rank, es)
	mine := g.data(g.rank, h)
	// Stage what the others reduce; our own share stays in v.
	v.each(from, from+lo, func(p []byte, at int) { copy(mine[at:], p) })
	v.each(from+hi, to, func(p []byte, at int) { copy(mine[hi+at:], p) })
	if err := g.waitAll(ctx, g.arrive()); err != nil {
		return err
	}
	if err := g.checkLengths(); err != nil {
		return err
	}
	// Reduce the peers' staged copies into our share in rank order; the
	// last pass also scales and writes the result where the peers read it.
	last := g.size - 1
	if last == g.rank {
		last--
	}
	for j := 0; j < g.size; j++ {
		if j == g.rank {
			continue
		}
		src := g.data(j, h)[lo:hi]
		v.each(from+lo, from+hi, func(p []byte, at int) {
			if j == last {
				reduce.BytesToScaled(dt, op, p, mine[lo+at:lo+at+len(p)], src[at:at+len(p)], scale)
			} else {
				reduce.Bytes(dt, op, p, src[at:at+len(p)])
			}
		})
	}
	if last < 0 && scale != 1 { // a group of one: nothing was reduced
		v.each(from+lo, from+hi, func(p []byte, _ int) { reduce.Scale(dt, p, scale) })
	}
	if err := g.waitAll(ctx, g.arrive()); err != nil {
		return err
	}
	for j := 0; j < g.size; j++ {
		if j != g.rank {
			a, b := share(n, g.size, j, es)
			src := g.data(j, h)
			v.each(from+a, from+b, func(p []byte, at int) { copy(p, src[a+at:]) })
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
