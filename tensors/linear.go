package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Linear returns x·weightᵀ + bias for x [..., in], weight [out, in] and bias [out] (or nil),
// as one gemm and the bias added to its rows while they are still in the cache.
func Linear(x, weight, bias *Tensor) *Tensor {
	defer opSpan("Linear", x, weight, bias).End()
	if weight.Dim() != 2 || x.Dim() == 0 || x.shape[x.Dim()-1] != weight.shape[1] {
		panic(fmt.Sprintf("tensors: Linear: input shape %v and weight shape %v do not match (need weight [out, %d])", x.shape, weight.shape, lastDim(x)))
	}
	outF, in := weight.shape[0], weight.shape[1]
	if bias != nil && (bias.Dim() != 1 || bias.shape[0] != outF) {
		panic(fmt.Sprintf("tensors: Linear: bias shape %v does not match weight shape %v (need [%d])", bias.shape, weight.shape, outF))
	}
	checkDevices("Linear", x, weight, bias)
	xc, w := promote("Linear", x.gemmOperand(), weight.gemmOperand())
	var b *Tensor
	if bias != nil {
		b = bias.AsType(w.dtype)
	}
	lowp := autocastType()
	if w.dtype == Float64 {
		lowp = Float64
	}
	rows := numel(xc.shape[:xc.Dim()-1])
	x2 := xc.contig()
	outShape := append(slices.Clone(x.shape[:x.Dim()-1]), outF)
	out := empty(w.dtype, w.dev, outShape...)
	wm, tw, ldw, _ := operand(w, nil)
	xg := x2
	if lowp == BFloat16 {
		// Round the operands once; the backward pass reuses them.
		xg = x2.convertTo(BFloat16)
		wc := wm.contig()
		wb := wc.convertTo(BFloat16)
		releaseIfNot(wc, wm)
		releaseIfNot(wm, w)
		wm, tw, ldw = wb, false, in
	}
	if rows > 0 {
		// out = x2 · wᵀ: B is w transposed, so flip w's own layout flag.
		w.be().Gemm(lowp.be(), false, !tw, 1, rows, outF, in, 1, xg.buf(), xg.offset, in, 0, wm.buf(), wm.offset, ldw, 0, 0, out.buf(), 0, outF, 0)
		if b != nil {
			// The bias is added to the product while it is still in the cache, not copied into
			// the output first for the product to accumulate onto: that copy wrote memory that
			// had left the cache and the product then read it back (2.8% of the char GPT's step).
			out.be().Binary(backend.Add, out.buf(), out.strided(), b.bcast(outShape), outShape)
		}
	}
	inputs := []*Tensor{xc, w, b}
	record(out, "Linear", inputs, func(g *Tensor) []*Tensor {
		g2 := g.contig()
		gg := g2
		if lowp == BFloat16 {
			gg = g2.convertTo(BFloat16)
		}
		var gx, gw, gb *Tensor
		if xc.requiresGrad {
			gx = empty(g2.dtype, g2.dev, xc.shape...)
			g2.be().Gemm(lowp.be(), false, tw, 1, rows, in, outF, 1, gg.buf(), 0, outF, 0, wm.buf(), wm.offset, ldw, 0, 0, gx.buf(), 0, in, 0)
		}
		if w.requiresGrad {
			gw = empty(g2.dtype, g2.dev, outF, in)
			g2.be().Gemm(lowp.be(), true, false, 1, outF, in, rows, 1, gg.buf(), 0, outF, 0, xg.buf(), xg.offset, in, 0, 0, gw.buf(), 0, in, 0)
		}
		if b != nil && b.requiresGrad {
			gv := g2.view([]int{rows, outF}, []int{outF, 1}, 0)
			gb = sumRaw(gv, []int{0})
			gv.release()
			gb = handOver(gb, gb.view([]int{outF}, []int{1}, 0))
		}
		releaseIfNot(gg, g2)
		releaseIfNot(g2, g)
		return []*Tensor{gx, gw, gb}
	}, xg, wm)
	// The node holds the operands its backward pass reads (the rounded copies under bfloat16
	// autocast); the handles made here are done.
	releaseIfNot(xg, x2)
	releaseIfNot(x2, xc)
	releaseIfNot(wm, w)
	releaseIfNot(xc, x)
	releaseIfNot(w, weight)
	releaseIfNot(b, bias)
	return out
}

func lastDim(t *Tensor) int {
	if t.Dim() == 0 {
		return 0
	}
	return t.shape[t.Dim()-1]
}

// MSE returns the mean squared error between a and b (broadcast).
func MSE(a, b *Tensor) *Tensor {
	defer opSpan("MSE", a, b).End()
	d := a.Sub(b)
	sq := d.Mul(d)
	out := sq.Mean()
	d.release() // the nodes that need them keep them
	sq.release()
	return out
}

// Dropout zeroes each element with probability p during training and scales the rest by
// 1/(1-p); it returns x unchanged when train is false or p is 0. Masks come from the
// process-wide generator.
func Dropout(x *Tensor, p float64, train bool) *Tensor {
	defer opSpan("Dropout", x).End()
	if p < 0 || p > 1 {
		panic(fmt.Sprintf("tensors: Dropout: probability %v outside [0, 1]", p))
	}
	if !train || p == 0 {
		return x
	}
	xc := x.computable()
	keep, scale := 1-p, 0.0
	if keep > 0 {
		scale = 1 / keep
	}
	var mask *Tensor
	if xc.dev.IsCPU() && xc.dtype == Float32 {
		// The same mask in one pass: the draws compared as they are drawn.
		mask = defaultGen.dropoutMask(float32(keep), float32(scale), xc.shape...)
	} else {
		mask = dropoutMaskOn(xc, keep, scale)
	}
	out := xc.Mul(mask)
	mask.release() // Mul's node keeps it for the backward pass
	releaseIfNot(xc, x)
	return out
}

// dropoutMaskOn computes Dropout's mask, scale where kept, else 0, on x's device in x's dtype.
// The uniform draws come from the host generator (so a seed gives the same mask on every device)
// and move to x's device once; the mask is computed there.
func dropoutMaskOn(xc *Tensor, keep, scale float64) *Tensor {
	r := defaultGen.Rand(xc.shape...)
	u := handOver(r, r.To(xc.dev))
	k := full(Float32, xc.dev, keep)
	m := binary(backend.Lt, "Dropout", u, k)
	u.release()
	k.release()
	mask := handOver(m, m.AsType(xc.dtype))
	mask.be().Unary(backend.MulScalar, mask.buf(), mask.buf(), scale, 0)
	return mask
}

// Embedding looks up rows of weight [num, dim] for int64 indices of any shape; the result has
// shape indices.shape + [dim].
func Embedding(weight, indices *Tensor) *Tensor {
	defer opSpan("Embedding", weight, indices).End()
	if weight.Dim() != 2 {
		panic(fmt.Sprintf("tensors: Embedding: weight must be [num, dim], have %v", weight.shape))
	}
	checkIndexTensor("Embedding", indices)
	flat := indices.Reshape(-1)
	rows := weight.IndexSelect(0, flat)
	releaseIfNot(flat, indices)
	return handOver(rows, rows.Reshape(append(slices.Clone(indices.shape), weight.shape[1])...))
}
