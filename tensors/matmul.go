package tensors

import (
	"fmt"
	"slices"
)

// matView describes the last two dims of t as a gemm operand: a matrix stored row-major
// (trans=false, ld = row stride) or column-major (trans=true, ld = column stride).
func matView(t *Tensor) (trans bool, ld int, ok bool) {
	n := t.Dim()
	r, c := t.shape[n-2], t.shape[n-1]
	sr, sc := t.strides[n-2], t.strides[n-1]
	switch {
	case sc == 1 && (sr >= c || r == 1):
		return false, max(sr, c), true
	case sr == 1 && (sc >= r || c == 1):
		return true, max(sc, r), true
	}
	return false, 0, false
}

// batchStride returns the element stride between consecutive matrices when t's batch dims can
// be walked as one flat dimension (0 when t has no batch dims, i.e. it is broadcast).
func batchStride(t *Tensor, bs []int) (int, bool) {
	b := t.shape[:t.Dim()-2]
	if numel(b) == 1 {
		return 0, true
	}
	if !slices.Equal(b, bs) {
		return 0, false
	}
	st := t.strides[len(b)-1]
	for i := len(b) - 2; i >= 0; i-- {
		if b[i] != 1 && t.strides[i] != st*b[i+1] {
			return 0, false
		}
		st = t.strides[i]
	}
	return t.strides[len(b)-1], true
}

// operand prepares a (batched) matrix for gemm, copying only when its layout needs it.
func operand(t *Tensor, bs []int) (x *Tensor, trans bool, ld, stride int) {
	tr, l, ok := matView(t)
	st, ok2 := batchStride(t, bs)
	if ok && ok2 {
		return t, tr, l, st
	}
	m := t.shape[t.Dim()-2:]
	full := append(slices.Clone(bs), m...)
	c := t.contig()
	x = handOverUnless(c, t, expand(c, full))
	return x, false, m[1], m[0] * m[1]
}

// matmulRaw computes a @ b for a [..., m, k], b [..., k, n] (both ≥ 2-D) without autograd.
func matmulRaw(a, b *Tensor, lowp DType) *Tensor {
	ab, bb := a.shape[:a.Dim()-2], b.shape[:b.Dim()-2]
	bs := broadcastShapes("MatMul", ab, bb)
	m, k, n := a.shape[a.Dim()-2], a.shape[a.Dim()-1], b.shape[b.Dim()-1]
	out := empty(Float32, a.dev, append(slices.Clone(bs), m, n)...)
	if a.dtype == Float64 {
		out = empty(Float64, a.dev, out.shape...)
	}
	if m*n == 0 {
		return out
	}
	ax, ta, lda, sa := operand(a, bs)
	bx, tb, ldb, sb := operand(b, bs)
	a.be().Gemm(lowp.be(), ta, tb, numel(bs), m, n, k, 1, ax.buf(), ax.offset, lda, sa, bx.buf(), bx.offset, ldb, sb, 0, out.buf(), 0, n, m*n)
	releaseIfNot(ax, a)
	releaseIfNot(bx, b)
	return out
}

// MatMul is torch.matmul: dot product for 1-D·1-D, matrix product for 2-D, and batched
// products with broadcast batch dimensions.
func (t *Tensor) MatMul(o *Tensor) *Tensor {
	defer opSpan("MatMul", t, o).End()
	if t.Dim() == 0 || o.Dim() == 0 {
		panic(fmt.Sprintf("tensors: MatMul: shapes %v and %v: both operands need at least one dimension", t.shape, o.shape))
	}
	a, b := t, o
	if a.Dim() == 1 {
		a = a.Unsqueeze(0)
	}
	if b.Dim() == 1 {
		b = b.Unsqueeze(1)
	}
	if a.shape[a.Dim()-1] != b.shape[b.Dim()-2] {
		panic(fmt.Sprintf("tensors: MatMul: shapes %v and %v are not aligned (%d != %d)", t.shape, o.shape, a.shape[a.Dim()-1], b.shape[b.Dim()-2]))
	}
	out := matmulCore(a, b)
	releaseIfNot(a, t) // the product's node keeps what it needs
	releaseIfNot(b, o)
	switch {
	case t.Dim() == 1 && o.Dim() == 1:
		out = handOver(out, out.Reshape())
	case t.Dim() == 1:
		out = handOver(out, out.Squeeze(out.Dim()-2))
	case o.Dim() == 1:
		out = handOver(out, out.Squeeze(out.Dim()-1))
	}
	return out
}

// matmulCore is the differentiable batched product of ≥2-D operands.
func matmulCore(a, b *Tensor) *Tensor {
	lowp := autocastType()
	if lowp == BFloat16 && a.dtype == BFloat16 && b.dtype == BFloat16 && sameDevice(a.dev, b.dev) {
		// Already in the autocast type: multiply as they are, without a round trip through float32.
		return matmulLowp(a, b)
	}
	a0, b0 := a, b
	a, b = promote("MatMul", a.gemmOperand(), b.gemmOperand())
	if a.dtype == Float64 {
		lowp = Float64
	}
	// Under bfloat16 autocast the operands are rounded once and kept for the backward pass.
	al, bl := a, b
	if lowp == BFloat16 {
		al, bl = a.convertTo(BFloat16), b.convertTo(BFloat16)
	}
	out := matmulRaw(al, bl, lowp)
	recordMatMul(out, a, b, al, bl, lowp, al, bl)
	releaseIfNot(al, a)
	releaseIfNot(bl, b)
	releaseIfNot(a, a0)
	releaseIfNot(b, b0)
	return out
}

// matmulLowp multiplies two bfloat16 operands under bfloat16 autocast (float32 result and
// accumulation); the gradients are float32, converted to the operands' type by autograd.
func matmulLowp(a, b *Tensor) *Tensor {
	out := matmulRaw(a, b, BFloat16)
	recordMatMul(out, a, b, a, b, BFloat16)
	return out
}

// recordMatMul records out = al·bl for the gradients of a and b, where al and bl are a and b
// as they were multiplied (rounded to bfloat16 when lowp is BFloat16, like the output
// gradient then); keep lists the tensors backward reads that the graph does not hold already.
func recordMatMul(out, a, b, al, bl *Tensor, lowp DType, keep ...*Tensor) {
	record(out, "MatMul", []*Tensor{a, b}, func(g *Tensor) []*Tensor {
		gl := g
		if lowp == BFloat16 {
			gl = g.convertTo(BFloat16)
		}
		var ga, gb *Tensor
		if a.requiresGrad {
			bt := bl.Transpose(-1, -2)
			ga = sumToOwned(matmulRaw(gl, bt, lowp), a.shape)
			bt.release()
		}
		if b.requiresGrad {
			at := al.Transpose(-1, -2)
			gb = sumToOwned(matmulRaw(at, gl, lowp), b.shape)
			at.release()
		}
		releaseIfNot(gl, g)
		return []*Tensor{ga, gb}
	}, keep...)
}

// gemmOperand returns t in a type the gemm-based ops take: float32 or float64. Int64 and
// 16-bit tensors widen to float32 (exact for bfloat16/float16 values), so their products equal
// low-precision multiplies with float32 accumulation.
func (t *Tensor) gemmOperand() *Tensor {
	if t.dtype == Int64 || t.dtype == BFloat16 || t.dtype == Float16 {
		return t.AsType(Float32)
	}
	return t
}
