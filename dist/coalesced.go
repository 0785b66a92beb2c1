package dist

import (
	"context"
	"fmt"

	"github.com/goaccel/goaccel/dist/internal/reduce"
)

// vectorAllReducer is implemented by backends that all-reduce several buffers
// as one collective without copying them together. handled is false when
// this group's layout needs the flat path (Group then copies).
type vectorAllReducer interface {
	allReduceV(ctx context.Context, bufs [][]byte, dt DType, op Op, scale float64) (handled bool, err error)
}

// AllReduceCoalesced reduces several buffers with op as one collective
// (torch's all_reduce_coalesced): each buffer ends up holding its part of
// the AllReduce of their concatenation, to the bit. Every rank passes
// buffers of the same total length. Within one host the buffers are reduced
// where they are (a model's gradient tensors, say), without a flat copy.
func (g *Group) AllReduceCoalesced(ctx context.Context, bufs [][]float32, op Op) error {
	switch op {
	case Sum, Mean, Max, Min:
	default:
		return fmt.Errorf("dist: all-reduce-coalesced: unknown op %v; use Sum, Mean, Max or Min", op)
	}
	if v, ok := g.backend.(vectorAllReducer); ok && g.Size() > 1 {
		bop, scale := op, 1.0
		if op == Mean {
			bop, scale = Sum, 1/float64(g.Size())
		}
		raw := make([][]byte, len(bufs))
		for i, b := range bufs {
			raw[i] = reduce.FromF32(b)
		}
		handled, n := false, 0
		for _, b := range raw {
			n += len(b)
		}
		err := g.runBytes(ctx, "all-reduce-coalesced("+op.String()+")", n, func(ctx context.Context) error {
			var err error
			handled, err = v.allReduceV(ctx, raw, Float32, bop, scale)
			return err
		})
		if handled || err != nil {
			return err
		}
	}
	n := 0
	for _, b := range bufs {
		n += len(b)
	}
	flat := make([]float32, 0, n)
	for _, b := range bufs {
		flat = append(flat, b...)
	}
	if err := g.AllReduce(ctx, flat, op); err != nil {
		return err
	}
	for _, b := range bufs {
		flat = flat[copy(b, flat):]
	}
	return nil
}

// allReduceV reduces in shared memory when every rank is on this host.
func (b *cpuBackend) allReduceV(ctx context.Context, bufs [][]byte, dt DType, op Op, scale float64) (bool, error) {
	if !b.oneHost {
		return false, nil
	}
	return true, b.region.AllReduceV(ctx, bufs, dt, rop(op), scale)
}
