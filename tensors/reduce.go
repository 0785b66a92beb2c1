package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// reduceRaw reduces dimension d of t (no autograd); the result keeps d with size 1.
func reduceRaw(op backend.ReduceOp, t *Tensor, d int) *Tensor {
	var x *Tensor
	if op == backend.ArgMax || op == backend.ArgMin {
		x = t.contig()
		if x.dtype == BFloat16 || x.dtype == Float16 {
			x = handOverUnless(x, t, x.convertTo(Float32))
		}
	} else {
		x = t.dense()
	}
	defer releaseIfNot(x, t)
	outer, n, inner := split3(x.shape, d)
	shape := slices.Clone(x.shape)
	shape[d] = 1
	if n == 0 {
		if op == backend.Sum {
			return zeros(x.dtype, x.dev, shape...) // an empty sum is 0, as in PyTorch
		}
		panic(fmt.Sprintf("tensors: reduction over empty dimension %d of shape %v", d, t.shape))
	}
	dt := x.dtype
	if op == backend.ArgMax || op == backend.ArgMin {
		dt = Int64
	}
	out := empty(dt, x.dev, shape...)
	x.be().Reduce(op, out.buf(), x.buf(), outer, n, inner)
	return out
}

// normDims resolves a dims list (empty = all) into sorted unique dimensions.
func (t *Tensor) normDims(op string, dims []int) []int {
	if len(dims) == 0 {
		out := make([]int, t.Dim())
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, 0, len(dims))
	for _, d := range dims {
		out = append(out, t.normDim(op, d))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// dropDims removes dims (sorted) from shape.
func dropDims(shape, dims []int) []int {
	out := []int{}
	for i, s := range shape {
		if !slices.Contains(dims, i) {
			out = append(out, s)
		}
	}
	return out
}

// keepShape is shape with dims set to 1.
func keepShape(shape, dims []int) []int {
	out := slices.Clone(shape)
	for _, d := range dims {
		out[d] = 1
	}
	return out
}

// expand materialises g (broadcastable to shape) as a contiguous tensor of shape.
func expand(g *Tensor, shape []int) *Tensor {
	if slices.Equal(g.shape, shape) {
		return g
	}
	out := empty(g.dtype, g.dev, shape...)
	g.be().Copy(out.strided(), g.bcast(shape), shape)
	return out
}

// sumRaw sums dims (sorted, unique) keeping them as size 1; the result may be t itself when
// dims is empty and t is already dense.
func sumRaw(t *Tensor, dims []int) *Tensor {
	x := t
	if len(dims) == 0 {
		return x.dense()
	}
	// Adjacent dims merge into one reduction; others reduce one at a time.
	i := len(dims) - 1
	for i >= 0 {
		j := i
		for j > 0 && dims[j-1] == dims[j]-1 {
			j--
		}
		lo, hi := dims[j], dims[i]
		xc := x.dense()
		merged := append(slices.Clone(xc.shape[:lo]), numel(xc.shape[lo:hi+1]))
		merged = append(merged, xc.shape[hi+1:]...)
		xm := xc.view(merged, contiguousStrides(merged), xc.offset)
		r := reduceRaw(backend.Sum, xm, lo)
		xm.release()
		releaseIfNot(xc, x)
		ks := slices.Clone(xc.shape)
		for k := lo; k <= hi; k++ {
			ks[k] = 1
		}
		if x != t {
			x.release()
		}
		x = handOver(r, r.view(ks, contiguousStrides(ks), 0))
		i = j - 1
	}
	return x
}

// Sum returns the sum of all elements as a 0-d tensor.
func (t *Tensor) Sum() *Tensor { return t.SumDims(false) }

// SumDims sums over dims (all when none given), keeping them as size 1 when keepdim is set.
func (t *Tensor) SumDims(keepdim bool, dims ...int) *Tensor {
	defer opSpan("Sum", t).End()
	ds := t.normDims("SumDims", dims)
	if len(ds) == len(t.shape) {
		if v, ok := deferredSum(t); ok {
			shape := []int{}
			if keepdim {
				shape = keepShape(t.shape, ds)
			}
			out := empty(Float32, t.dev, shape...)
			out.buf().F32[0] = v
			return out
		}
	}
	r := sumRaw(t, ds)
	out := r
	if !keepdim {
		out = r.view(dropDims(r.shape, ds), contiguousStrides(dropDims(r.shape, ds)), r.offset)
		releaseIfNot(r, t)
	}
	if out == t {
		out = t.view(t.shape, t.strides, t.offset)
	}
	ks := keepShape(t.shape, ds)
	record(out, "Sum", []*Tensor{t}, func(g *Tensor) []*Tensor {
		gk := g.Reshape(ks...)
		return []*Tensor{handOverUnless(gk, g, expand(gk, t.shape))}
	})
	return out
}

// Mean returns the mean of all elements.
func (t *Tensor) Mean() *Tensor { return t.MeanDims(false) }

// MeanDims averages over dims (all when none given).
func (t *Tensor) MeanDims(keepdim bool, dims ...int) *Tensor {
	defer opSpan("Mean", t).End()
	ds := t.normDims("MeanDims", dims)
	n := 1
	for _, d := range ds {
		n *= t.shape[d]
	}
	s := t.SumDims(keepdim, dims...)
	out := s.MulScalar(1 / float64(n))
	s.release() // the product's node keeps it while a backward pass may need it
	return out
}

// Max returns the largest element; the gradient is shared evenly among ties (as PyTorch).
func (t *Tensor) Max() *Tensor { return t.extreme(backend.Max, "Max") }

// Min returns the smallest element.
func (t *Tensor) Min() *Tensor { return t.extreme(backend.Min, "Min") }

func (t *Tensor) extreme(op backend.ReduceOp, name string) *Tensor {
	defer opSpan(name, t).End()
	if t.Numel() == 0 {
		panic(fmt.Sprintf("tensors: %s: tensor of shape %v is empty", name, t.shape))
	}
	c := t.contig()
	flat := c.view([]int{c.Numel()}, []int{1}, c.offset)
	releaseIfNot(c, t)
	r := reduceRaw(op, flat, 0)
	flat.release()
	out := handOver(r, r.view([]int{}, []int{}, 0))
	record(out, name, []*Tensor{t}, func(g *Tensor) []*Tensor {
		x := t.computable()
		mask := binary(backend.Eq, name, x, out)
		releaseIfNot(x, t)
		count := sumRaw(mask, mask.normDims(name, nil))
		share := binary(backend.Div, name, g, count)
		gx := binary(backend.Mul, name, mask, share)
		mask.release()
		count.release()
		share.release()
		return []*Tensor{gx}
	})
	return out
}

// MaxDim returns the maximum along dim (gradient to the first maximal position).
func (t *Tensor) MaxDim(dim int, keepdim bool) *Tensor {
	defer opSpan("MaxDim", t).End()
	return t.extremeDim(backend.ArgMax, dim, keepdim)
}

// MinDim returns the minimum along dim.
func (t *Tensor) MinDim(dim int, keepdim bool) *Tensor {
	defer opSpan("MinDim", t).End()
	return t.extremeDim(backend.ArgMin, dim, keepdim)
}

func (t *Tensor) extremeDim(op backend.ReduceOp, dim int, keepdim bool) *Tensor {
	d := t.normDim("MaxDim", dim)
	idx := reduceRaw(op, t, d)
	out := t.Gather(d, idx)
	idx.release() // Gather keeps it for its backward pass
	if !keepdim {
		out = handOver(out, out.Squeeze(d))
	}
	return out
}

// ArgMax returns the int64 index of the first maximum along dim.
func (t *Tensor) ArgMax(dim int, keepdim bool) *Tensor {
	defer opSpan("ArgMax", t).End()
	d := t.normDim("ArgMax", dim)
	idx := reduceRaw(backend.ArgMax, t, d)
	if !keepdim {
		s := dropDims(idx.shape, []int{d})
		idx = handOver(idx, idx.view(s, contiguousStrides(s), 0))
	}
	return idx
}

// Var returns the variance over dims (all when none given), with Bessel's correction when
// unbiased.
func (t *Tensor) Var(unbiased, keepdim bool, dims ...int) *Tensor {
	defer opSpan("Var", t).End()
	ds := t.normDims("Var", dims)
	n := 1
	for _, d := range ds {
		n *= t.shape[d]
	}
	den := float64(n)
	if unbiased {
		den--
	}
	mean := t.MeanDims(true, dims...)
	dev := t.Sub(mean)
	sq := dev.Mul(dev)
	sum := sq.SumDims(keepdim, dims...)
	out := sum.MulScalar(1 / den)
	for _, x := range []*Tensor{mean, dev, sq, sum} {
		x.release() // the nodes that need them keep them
	}
	return out
}

// Softmax normalises exp(t) along dim.
func (t *Tensor) Softmax(dim int) *Tensor { return t.softmax(dim, false) }

// LogSoftmax returns log(Softmax(dim)) computed stably.
func (t *Tensor) LogSoftmax(dim int) *Tensor { return t.softmax(dim, true) }

func (t *Tensor) softmax(dim int, log bool) *Tensor {
	name := "Softmax"
	if log {
		name = "LogSoftmax"
	}
	defer opSpan(name, t).End()
	d := t.normDim(name, dim)
	x := t.dense()
	outer, n, inner := split3(x.shape, d)
	out := empty(x.dtype, x.dev, x.shape...)
	if out.Numel() > 0 { // an empty tensor's softmax is empty (torch.softmax's too)
		x.be().Softmax(out.buf(), x.buf(), outer, n, inner, log)
	}
	releaseIfNot(x, t)
	record(out, name, []*Tensor{t}, func(g *Tensor) []*Tensor {
		gc := g.contig()
		dx := empty(gc.dtype, gc.dev, gc.shape...)
		if dx.Numel() == 0 {
			releaseIfNot(gc, g)
			return []*Tensor{dx}
		}
		out.be().SoftmaxGrad(dx.buf(), gc.buf(), out.buf(), outer, n, inner, log)
		releaseIfNot(gc, g)
		return []*Tensor{dx}
	})
	return out
}
