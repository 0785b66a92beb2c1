package dist

import (
	"context"
	"fmt"

	"github.com/goaccel/goaccel/dist/internal/reduce"
)

func (g *Group) allReduce(ctx context.Context, buf []byte, dt DType, op Op) error {
	switch op {
	case Sum, Max, Min:
	case Mean:
		if dt == Int64 {
			return fmt.Errorf("dist: all-reduce: Mean is not defined for int64; use Sum and divide")
		}
	default:
		return fmt.Errorf("dist: all-reduce: unknown op %v; use Sum, Mean, Max or Min", op)
	}
	bop := op
	if op == Mean {
		bop = Sum
	}
	return g.runBytes(ctx, "all-reduce("+op.String()+")", len(buf), func(ctx context.Context) error {
		if err := g.backend.AllReduce(ctx, buf, dt, bop); err != nil {
			return err
		}
		if op == Mean && g.Size() > 1 {
			reduce.Scale(dt, buf, 1/float64(g.Size()))
		}
		return nil
	})
}

// AllReduce reduces buf element-wise across all ranks with op and leaves the
// result, identical to the bit, in buf on every rank.
func (g *Group) AllReduce(ctx context.Context, buf []float32, op Op) error {
	return g.allReduce(ctx, reduce.FromF32(buf), Float32, op)
}

// AllReduceFloat64 is AllReduce for float64.
func (g *Group) AllReduceFloat64(ctx context.Context, buf []float64, op Op) error {
	return g.allReduce(ctx, reduce.FromF64(buf), Float64, op)
}

// AllReduceInt64 is AllReduce for int64 (Sum, Max, Min).
func (g *Group) AllReduceInt64(ctx context.Context, buf []int64, op Op) error {
	return g.allReduce(ctx, reduce.FromI64(buf), Int64, op)
}

func (g *Group) allGather(ctx context.Context, send, recv []byte, es int) error {
	if len(recv) != g.Size()*len(send) {
		return fmt.Errorf("dist: all-gather: recv holds %d elements, want size × len(send) = %d × %d", len(recv)/es, g.Size(), len(send)/es)
	}
	return g.runBytes(ctx, "all-gather", len(send), func(ctx context.Context) error {
		return g.backend.AllGather(ctx, send, recv)
	})
}

// AllGather concatenates every rank's send, in rank order, into recv, which
// must hold Size()×len(send) elements. All ranks send the same length; see
// AllGatherV otherwise.
func (g *Group) AllGather(ctx context.Context, send, recv []float32) error {
	return g.allGather(ctx, reduce.FromF32(send), reduce.FromF32(recv), 4)
}

// AllGatherFloat64 is AllGather for float64.
func (g *Group) AllGatherFloat64(ctx context.Context, send, recv []float64) error {
	return g.allGather(ctx, reduce.FromF64(send), reduce.FromF64(recv), 8)
}

// AllGatherInt64 is AllGather for int64 (labels, indices).
func (g *Group) AllGatherInt64(ctx context.Context, send, recv []int64) error {
	return g.allGather(ctx, reduce.FromI64(send), reduce.FromI64(recv), 8)
}

// lengths gathers every rank's element count.
func (g *Group) lengths(ctx context.Context, n int) ([]int64, error) {
	all := make([]int64, g.Size())
	if err := g.AllGatherInt64(ctx, []int64{int64(n)}, all); err != nil {
		return nil, err
	}
	return all, nil
}

// allGatherV gathers byte payloads of unequal length: lengths first, then
// one all-gather of payloads padded to the longest.
func (g *Group) allGatherV(ctx context.Context, send []byte, es int) ([][]byte, error) {
	ns, err := g.lengths(ctx, len(send)/es)
	if err != nil {
		return nil, err
	}
	longest := 0
	for _, n := range ns {
		longest = max(longest, int(n)*es)
	}
	padded := make([]byte, longest)
	copy(padded, send)
	all := make([]byte, longest*g.Size())
	if err := g.allGather(ctx, padded, all, es); err != nil {
		return nil, err
	}
	out := make([][]byte, g.Size())
	for r, n := range ns {
		out[r] = all[r*longest : r*longest+int(n)*es : r*longest+int(n)*es]
	}
	return out, nil
}

// AllGatherV gathers every rank's send, whose lengths may differ, and
// returns them indexed by rank.
func (g *Group) AllGatherV(ctx context.Context, send []float32) ([][]float32, error) {
	parts, err := g.allGatherV(ctx, reduce.FromF32(send), 4)
	if err != nil {
		return nil, err
	}
	out := make([][]float32, len(parts))
	for r, p := range parts {
		out[r] = append([]float32{}, reduce.F32(p)...)
	}
	return out, nil
}

// AllGatherVInt64 is AllGatherV for int64.
func (g *Group) AllGatherVInt64(ctx context.Context, send []int64) ([][]int64, error) {
	parts, err := g.allGatherV(ctx, reduce.FromI64(send), 8)
	if err != nil {
		return nil, err
	}
	out := make([][]int64, len(parts))
	for r, p := range parts {
		out[r] = append([]int64{}, reduce.I64(p)...)
	}
	return out, nil
}

// AllGatherVBytes gathers every rank's bytes, whose lengths may differ (for
// payloads a caller encodes itself; GatherObject encodes with gob).
func (g *Group) AllGatherVBytes(ctx context.Context, send []byte) ([][]byte, error) {
	parts, err := g.allGatherV(ctx, send, 1)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(parts))
	for r, p := range parts {
		out[r] = append([]byte{}, p...)
	}
	return out, nil
}

func (g *Group) broadcast(ctx context.Context, buf []byte, root int) error {
	if root < 0 || root >= g.Size() {
		return fmt.Errorf("dist: broadcast: root %d is outside [0, %d)", root, g.Size())
	}
	return g.runBytes(ctx, fmt.Sprintf("broadcast(root %d)", root), len(buf), func(ctx context.Context) error {
		return g.backend.Broadcast(ctx, buf, root)
	})
}

// Broadcast copies root's buf into buf on every other rank.
func (g *Group) Broadcast(ctx context.Context, buf []float32, root int) error {
	return g.broadcast(ctx, reduce.FromF32(buf), root)
}

// BroadcastFloat64 is Broadcast for float64.
func (g *Group) BroadcastFloat64(ctx context.Context, buf []float64, root int) error {
	return g.broadcast(ctx, reduce.FromF64(buf), root)
}

// BroadcastInt64 is Broadcast for int64.
func (g *Group) BroadcastInt64(ctx context.Context, buf []int64, root int) error {
	return g.broadcast(ctx, reduce.FromI64(buf), root)
}

// BroadcastBytes is Broadcast for raw bytes (every rank passes the same length).
func (g *Group) BroadcastBytes(ctx context.Context, buf []byte, root int) error {
	return g.broadcast(ctx, buf, root)
}

// ReduceScatter reduces send (Size()×len(recv) elements, rank-major chunks)
// across ranks with op and leaves chunk r of the result in recv on rank r.
// send is left unchanged.
func (g *Group) ReduceScatter(ctx context.Context, send, recv []float32, op Op) error {
	if len(send) != g.Size()*len(recv) {
		return fmt.Errorf("dist: reduce-scatter: send holds %d elements, want size × len(recv) = %d × %d", len(send), g.Size(), len(recv))
	}
	bop := op
	switch op {
	case Sum, Max, Min:
	case Mean:
		bop = Sum
	default:
		return fmt.Errorf("dist: reduce-scatter: unknown op %v; use Sum, Mean, Max or Min", op)
	}
	scratch := append([]float32(nil), send...)
	return g.run(ctx, "reduce-scatter("+op.String()+")", func(ctx context.Context) error {
		if err := g.backend.ReduceScatter(ctx, reduce.FromF32(scratch), reduce.FromF32(recv), Float32, bop); err != nil {
			return err
		}
		if op == Mean && g.Size() > 1 {
			reduce.Scale(reduce.Float32, reduce.FromF32(recv), 1/float64(g.Size()))
		}
		return nil
	})
}

// Barrier returns once every rank has called it.
func (g *Group) Barrier(ctx context.Context) error {
	return g.run(ctx, "barrier", g.backend.Barrier)
}

func bytesF64(v []float64) []byte { return reduce.FromF64(v) }
func f64s(b []byte) []float64     { return reduce.F64(b) }
