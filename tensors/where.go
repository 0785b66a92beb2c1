package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// whereRaw selects a where cond is nonzero, else b, broadcasting all three (no autograd).
func whereRaw(name string, cond, a, b *Tensor) *Tensor {
	pa, pb := promote(name, a, b)
	if !sameDevice(cond.dev, pa.dev) {
		panic(fmt.Sprintf("tensors: %s: condition on %s, values on %s", name, cond.dev, pa.dev))
	}
	shape := broadcastShapes(name, cond.shape, pa.shape, pb.shape)
	out := empty(pa.dtype, pa.dev, shape...)
	pa.be().Where(out.buf(), cond.bcast(shape), pa.bcast(shape), pb.bcast(shape), shape)
	releaseIfNot(pa, a)
	releaseIfNot(pb, b)
	return out
}

// Where returns a where cond is nonzero and b elsewhere, broadcasting all three.
func Where(cond, a, b *Tensor) *Tensor {
	defer opSpan("Where", cond, a, b).End()
	out := whereRaw("Where", cond, a, b)
	record(out, "Where", []*Tensor{a, b}, func(g *Tensor) []*Tensor {
		zero := zeros(g.dtype, g.dev)
		var ga, gb *Tensor
		if a.requiresGrad {
			ga = sumToOwned(whereRaw("Where", cond, g, zero), a.shape)
		}
		if b.requiresGrad {
			gb = sumToOwned(whereRaw("Where", cond, zero, g), b.shape)
		}
		zero.release()
		return []*Tensor{ga, gb}
	}, cond)
	return out
}

// MaskedFill returns t with value wherever mask (any dtype, broadcast to t) is nonzero.
func (t *Tensor) MaskedFill(mask *Tensor, value float64) *Tensor {
	defer opSpan("MaskedFill", t, mask).End()
	shape := broadcastShapes("MaskedFill", t.shape, mask.shape)
	if !slices.Equal(shape, t.shape) {
		panic(fmt.Sprintf("tensors: MaskedFill: mask shape %v does not broadcast to tensor shape %v", mask.shape, t.shape))
	}
	x := t.computable()
	v := full(x.dtype, t.dev, value)
	out := whereRaw("MaskedFill", mask, v, x)
	v.release()
	releaseIfNot(x, t)
	record(out, "MaskedFill", []*Tensor{t}, func(g *Tensor) []*Tensor {
		zero := zeros(g.dtype, g.dev)
		gx := whereRaw("MaskedFill", mask, zero, g)
		zero.release()
		return []*Tensor{gx}
	}, mask)
	return out
}

func compare(op backend.BinaryOp, name string, t, o *Tensor) *Tensor {
	defer opSpan(name, t, o).End()
	a, b := t, o
	if a.dtype == BFloat16 || a.dtype == Float16 {
		a = a.AsType(Float32)
	}
	if b.dtype == BFloat16 || b.dtype == Float16 {
		b = b.AsType(Float32)
	}
	out := binary(op, name, a, b)
	releaseIfNot(a, t)
	releaseIfNot(b, o)
	if out.dtype != Float32 {
		out = handOver(out, out.convertTo(Float32))
	}
	return out
}

// Eq returns 1 where t == o, else 0 (float32, broadcast, no gradient).
func (t *Tensor) Eq(o *Tensor) *Tensor { return compare(backend.Eq, "Eq", t, o) }

// Ne returns 1 where t != o, else 0.
func (t *Tensor) Ne(o *Tensor) *Tensor { return compare(backend.Ne, "Ne", t, o) }

// Gt returns 1 where t > o, else 0.
func (t *Tensor) Gt(o *Tensor) *Tensor { return compare(backend.Gt, "Gt", t, o) }

// Lt returns 1 where t < o, else 0.
func (t *Tensor) Lt(o *Tensor) *Tensor { return compare(backend.Lt, "Lt", t, o) }

// Ge returns 1 where t >= o, else 0.
func (t *Tensor) Ge(o *Tensor) *Tensor { return compare(backend.Ge, "Ge", t, o) }

// Le returns 1 where t <= o, else 0.
func (t *Tensor) Le(o *Tensor) *Tensor { return compare(backend.Le, "Le", t, o) }
