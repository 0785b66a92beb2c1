package dist

import (
	"context"
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors"
)

// checkTensor reports why t cannot take part in a collective in place.
func checkTensor(what string, t *tensors.Tensor) error {
	if t == nil {
		return fmt.Errorf("dist: %s: nil tensor", what)
	}
	if !t.IsContiguous() {
		return fmt.Errorf("dist: %s: tensor %v is not contiguous; call Contiguous() first", what, t.Shape())
	}
	switch t.DType() {
	case tensors.Float32, tensors.Float64, tensors.Int64:
		return nil
	}
	return fmt.Errorf("dist: %s: dtype %s is not supported; use float32, float64 or int64 (AsType)", what, t.DType())
}

// onHost returns t itself when its storage is host memory (the CPU), else a host copy; done
// copies the copy's values back into t.
func onHost(t *tensors.Tensor) (h *tensors.Tensor, done func()) {
	if t.Device().IsCPU() {
		return t, func() {}
	}
	h = t.To(tensors.CPU)
	return h, func() { t.CopyFrom(h) }
}

// AllReduceTensor reduces t element-wise across ranks with op, in place.
// t must be a contiguous tensor of float32, float64 or int64 with the same
// shape on every rank. A tensor on a device travels through a host copy
// unless the backend runs collectives on that device itself.
func (g *Group) AllReduceTensor(ctx context.Context, t *tensors.Tensor, op Op) error {
	if err := checkTensor("all-reduce", t); err != nil {
		return err
	}
	if _, ok := g.deviceFor(t); ok {
		wait, err := g.StartAllReduceTensor(ctx, t, op)
		if err != nil {
			return err
		}
		return wait()
	}
	h, done := onHost(t)
	var err error
	switch t.DType() {
	case tensors.Float32:
		err = g.AllReduce(ctx, h.Data32(), op)
	case tensors.Float64:
		err = g.AllReduceFloat64(ctx, h.Data64(), op)
	default:
		v := h.Int64s()
		if err = g.AllReduceInt64(ctx, v, op); err == nil {
			h.CopyFrom(tensors.FromInt64(v, t.Shape()...))
		}
	}
	if err == nil {
		done()
	}
	return err
}

// BroadcastTensor copies root's t into t on every other rank.
func (g *Group) BroadcastTensor(ctx context.Context, t *tensors.Tensor, root int) error {
	if err := checkTensor("broadcast", t); err != nil {
		return err
	}
	if db, ok := g.deviceFor(t); ok {
		return g.run(ctx, "broadcast", func(ctx context.Context) error { return db.BroadcastTensor(ctx, t, root) })
	}
	h, done := onHost(t)
	var err error
	switch t.DType() {
	case tensors.Float32:
		err = g.Broadcast(ctx, h.Data32(), root)
	case tensors.Float64:
		err = g.BroadcastFloat64(ctx, h.Data64(), root)
	default:
		v := h.Int64s()
		if err = g.BroadcastInt64(ctx, v, root); err == nil {
			h.CopyFrom(tensors.FromInt64(v, t.Shape()...))
		}
	}
	if err == nil {
		done()
	}
	return err
}

// AllGatherTensor concatenates every rank's t along the first dimension, in
// rank order; first dimensions may differ between ranks, the others must
// match. A 0-dimensional t counts as one element. The result is on t's device.
func (g *Group) AllGatherTensor(ctx context.Context, t *tensors.Tensor) (*tensors.Tensor, error) {
	if err := checkTensor("all-gather", t); err != nil {
		return nil, err
	}
	out, err := g.allGatherHost(ctx, t)
	if err != nil {
		return nil, err
	}
	return out.To(t.Device()), nil
}

func (g *Group) allGatherHost(ctx context.Context, t *tensors.Tensor) (*tensors.Tensor, error) {
	shape := t.Shape()
	if len(shape) == 0 {
		shape = []int{1}
	}
	desc := []int64{int64(t.DType()), int64(len(shape))}
	for _, d := range shape {
		desc = append(desc, int64(d))
	}
	descs, err := g.AllGatherVInt64(ctx, desc)
	if err != nil {
		return nil, err
	}
	rows, equal := 0, true
	for r, d := range descs {
		equal = equal && d[2] == desc[2]
		if d[0] != desc[0] || d[1] != desc[1] || !slices.Equal(d[3:], desc[3:]) {
			return nil, fmt.Errorf("dist: all-gather: rank %d has a %s tensor of shape %v, rank %d a %s tensor of shape %v; only the first dimension may differ",
				r, tensors.DType(d[0]), d[2:], g.Rank(), t.DType(), desc[2:])
		}
		rows += int(d[2])
	}
	out := append([]int{rows}, shape[1:]...)
	if db, ok := g.deviceFor(t); ok && equal {
		recv := tensors.Zeros(out...).AsType(t.DType()).To(t.Device())
		err := g.run(ctx, "all-gather", func(ctx context.Context) error { return db.AllGatherTensor(ctx, t.Contiguous(), recv) })
		return recv, err
	}
	t, _ = onHost(t)
	switch t.DType() {
	case tensors.Float32:
		parts, err := g.AllGatherV(ctx, t.Data32())
		if err != nil {
			return nil, err
		}
		var all []float32
		for _, p := range parts {
			all = append(all, p...)
		}
		return tensors.New(all, out...), nil
	case tensors.Float64:
		parts, err := g.allGatherV(ctx, bytesF64(t.Data64()), 8)
		if err != nil {
			return nil, err
		}
		var all []float64
		for _, p := range parts {
			all = append(all, f64s(p)...)
		}
		return tensors.NewFloat64(all, out...), nil
	}
	parts, err := g.AllGatherVInt64(ctx, t.Int64s())
	if err != nil {
		return nil, err
	}
	var all []int64
	for _, p := range parts {
		all = append(all, p...)
	}
	return tensors.FromInt64(all, out...), nil
}
