package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

func checkIndexTensor(op string, index *Tensor) {
	if index.dtype != Int64 {
		panic(fmt.Sprintf("tensors: %s: index must be int64, have %s (use AsType(tensors.Int64))", op, index.dtype))
	}
}

// split3 views shape as [outer, shape[d], inner].
func split3(shape []int, d int) (outer, n, inner int) {
	return numel(shape[:d]), shape[d], numel(shape[d+1:])
}

// IndexSelect picks entries along dim with a 1-D int64 index.
func (t *Tensor) IndexSelect(dim int, index *Tensor) *Tensor {
	defer opSpan("IndexSelect", t, index).End()
	checkIndexTensor("IndexSelect", index)
	if index.Dim() != 1 {
		panic(fmt.Sprintf("tensors: IndexSelect: index must be 1-D, have shape %v", index.shape))
	}
	d := t.normDim("IndexSelect", dim)
	checkDevices("IndexSelect", t, index)
	x, idx := t.contig(), index.contig()
	outer, n, inner := split3(x.shape, d)
	shape := slices.Clone(x.shape)
	shape[d] = idx.Numel()
	out := empty(x.dtype, x.dev, shape...)
	x.be().IndexSelect(out.buf(), x.buf(), idx.buf(), outer, n, inner)
	releaseIfNot(x, t)
	record(out, "IndexSelect", []*Tensor{t}, func(g *Tensor) []*Tensor {
		gx := zeros(g.dtype, g.dev, t.shape...)
		gc := g.contig()
		g.be().IndexAdd(gx.buf(), gc.buf(), idx.buf(), outer, n, inner)
		releaseIfNot(gc, g)
		return []*Tensor{gx}
	}, idx)
	releaseIfNot(idx, index)
	return out
}

// Gather picks t[..., index[...], ...] along dim; index has t's rank and, except along dim,
// t's sizes.
func (t *Tensor) Gather(dim int, index *Tensor) *Tensor {
	defer opSpan("Gather", t, index).End()
	checkIndexTensor("Gather", index)
	d := t.normDim("Gather", dim)
	if index.Dim() != t.Dim() {
		panic(fmt.Sprintf("tensors: Gather: index shape %v and input shape %v differ in rank", index.shape, t.shape))
	}
	for i := range t.shape {
		if i != d && index.shape[i] != t.shape[i] {
			panic(fmt.Sprintf("tensors: Gather: index shape %v must match input shape %v outside dim %d", index.shape, t.shape, d))
		}
	}
	checkDevices("Gather", t, index)
	x, idx := t.contig(), index.contig()
	outer, n, inner := split3(x.shape, d)
	m := idx.shape[d]
	out := empty(x.dtype, x.dev, idx.shape...)
	x.be().Gather(out.buf(), x.buf(), idx.buf(), outer, n, m, inner)
	releaseIfNot(x, t)
	record(out, "Gather", []*Tensor{t}, func(g *Tensor) []*Tensor {
		gx := zeros(g.dtype, g.dev, t.shape...)
		gc := g.contig()
		g.be().ScatterAdd(gx.buf(), gc.buf(), idx.buf(), outer, n, m, inner)
		releaseIfNot(gc, g)
		return []*Tensor{gx}
	}, idx)
	releaseIfNot(idx, index)
	return out
}

// Cat concatenates tensors along dim; all other sizes must match.
func Cat(ts []*Tensor, dim int) *Tensor {
	defer opSpanOf("Cat", ts).End()
	if len(ts) == 0 {
		panic("tensors: Cat: no tensors given")
	}
	first := ts[0]
	d := first.normDim("Cat", dim)
	shape := slices.Clone(first.shape)
	shape[d] = 0
	dt := first.dtype
	checkDevices("Cat", ts...)
	for _, x := range ts {
		if x.Dim() != first.Dim() {
			panic(fmt.Sprintf("tensors: Cat: shapes %v and %v differ in rank", first.shape, x.shape))
		}
		for i := range x.shape {
			if i != d && x.shape[i] != first.shape[i] {
				panic(fmt.Sprintf("tensors: Cat: shapes %v and %v differ outside dim %d", first.shape, x.shape, d))
			}
		}
		if x.dtype == Float64 || (dt == Int64 && x.dtype != Int64) {
			dt = x.dtype
		}
		shape[d] += x.shape[d]
	}
	out := empty(dt, first.dev, shape...)
	offs := make([]int, len(ts))
	at := 0
	for i, x := range ts {
		offs[i] = at
		st := backend.Strided{Buf: out.buf(), Offset: at * out.strides[d], Strides: out.strides}
		x.be().Copy(st, x.strided(), x.shape)
		at += x.shape[d]
	}
	record(out, "Cat", ts, func(g *Tensor) []*Tensor {
		gs := make([]*Tensor, len(ts))
		for i, x := range ts {
			if x.requiresGrad {
				s := g.Slice(d, offs[i], offs[i]+x.shape[d])
				gs[i] = handOver(s, s.contig())
			}
		}
		return gs
	})
	return out
}

// Stack joins same-shaped tensors along a new dimension dim.
func Stack(ts []*Tensor, dim int) *Tensor {
	defer opSpanOf("Stack", ts).End()
	if len(ts) == 0 {
		panic("tensors: Stack: no tensors given")
	}
	us := make([]*Tensor, len(ts))
	for i, x := range ts {
		if !slices.Equal(x.shape, ts[0].shape) {
			panic(fmt.Sprintf("tensors: Stack: shapes %v and %v differ", ts[0].shape, x.shape))
		}
		us[i] = x.Unsqueeze(dim)
	}
	out := Cat(us, dim)
	for _, u := range us {
		u.release() // Cat's node keeps what its backward pass needs
	}
	return out
}
