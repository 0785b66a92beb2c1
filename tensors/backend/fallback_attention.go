package backend

import "math"

// The composed attention: the textbook computation with the [Tq, Tk] weights of every head
// materialised (a device without the fused kernel trades memory for simplicity), the causal,
// key padding and dropout masks made on the host with the same rules as the fused kernels.

// attnOperands copies q, k and v into contiguous [Batch·Heads, T, D] temporaries.
func (x *completed) attnOperands(q, k, v Strided, p AttentionParams) (qc, kc, vc *Buffer) {
	dt := q.Buf.DType
	cp := func(s Strided, t, d int) *Buffer {
		b := x.tmp(dt, p.Batch*p.Heads*t*d)
		shape := []int{p.Batch, p.Heads, t, d}
		x.Copy(whole(b, shape...), s, shape)
		return b
	}
	return cp(q, p.Tq, p.D), cp(k, p.Tk, p.D), cp(v, p.Tk, p.Dv)
}

// attnMask is what the causal and key padding masks leave visible, as device buffers of the
// operands' type: vis [Batch, Tq, Tk] is 1 where query i of batch row b sees key j, alive
// [Batch, Tq] is 1 where the query sees any key. Both are nil when every key is visible.
type attnMask struct{ vis, alive *Buffer }

func (x *completed) attnMask(dt DType, p AttentionParams) attnMask {
	if !p.Causal && p.KeyMask == nil {
		return attnMask{}
	}
	var keys []int64
	if p.KeyMask != nil {
		keys = x.toHost(p.KeyMask).I64
	}
	vis, alive := NewHost(dt, p.Batch*p.Tq*p.Tk), NewHost(dt, p.Batch*p.Tq)
	for b := range p.Batch {
		for i := range p.Tq {
			for j := range p.Tk {
				if p.Visible(i, j) && (keys == nil || keys[b*p.Tk+j] != 0) {
					setHost(vis, (b*p.Tq+i)*p.Tk+j, 1)
					setHost(alive, b*p.Tq+i, 1)
				}
			}
		}
	}
	return attnMask{x.fromHost(vis), x.fromHost(alive)}
}

func (x *completed) releaseMask(m attnMask) {
	if m.vis != nil && x.tr != nil {
		x.release(m.vis, m.alive)
	}
}

// visView is m.vis broadcast over the heads, as [Batch·Heads, Tq, Tk] rows; aliveView is
// m.alive as [Batch·Heads·Tq].
func (m attnMask) visView(p AttentionParams) Strided {
	return at(m.vis, 0, p.Tq*p.Tk, 0, p.Tk, 1)
}

func (m attnMask) aliveView(p AttentionParams) Strided { return at(m.alive, 0, p.Tq, 0, 1) }

// masked sets the entries of b (shape [Batch, Heads, …] per the view) where cond is 0 to v.
func (x *completed) masked(b *Buffer, cond Strided, v float64, shape []int) {
	c := x.scalar(b.DType, v)
	zeros := make([]int, len(shape))
	x.Where(b, cond, whole(b, shape...), at(c, 0, zeros...), shape)
	x.release(c)
}

// attnScores returns the scaled scores q·kᵀ·Scale [Batch·Heads, Tq, Tk] with invisible keys
// set to −∞.
func (x *completed) attnScores(qc, kc *Buffer, m attnMask, p AttentionParams) *Buffer {
	dt, bh := qc.DType, p.Batch*p.Heads
	s := x.tmp(dt, bh*p.Tq*p.Tk)
	x.Gemm(dt, false, true, bh, p.Tq, p.Tk, p.D, p.Scale, qc, 0, p.D, p.Tq*p.D, kc, 0, p.D, p.Tk*p.D, 0, s, 0, p.Tk, p.Tq*p.Tk)
	if m.vis != nil {
		x.masked(s, m.visView(p), math.Inf(-1), []int{p.Batch, p.Heads, p.Tq, p.Tk})
	}
	return s
}

// keepVisible multiplies the weights w [Batch·Heads, Tq, Tk] by the visibility mask, so masked
// keys and rows that see no key weigh exactly 0 whatever the exponential gave.
func (x *completed) keepVisible(w *Buffer, m attnMask, p AttentionParams) {
	if m.vis == nil {
		return
	}
	shape := []int{p.Batch, p.Heads, p.Tq, p.Tk}
	x.Binary(Mul, w, whole(w, shape...), m.visView(p), shape)
}

// attnKeep returns the dropout factors [Batch·Heads, Tq, Tk]: KeepScale where kept, else 0.
func (x *completed) attnKeep(dt DType, p AttentionParams) *Buffer {
	n := p.Rows() * p.Tk
	h := NewHost(dt, n)
	ks := p.KeepScale()
	for i := range n {
		if DropoutKeep(p.Seed, uint64(i), p.Dropout) {
			setHost(h, i, ks)
		}
	}
	return x.fromHost(h)
}

func setHost(h *Buffer, i int, v float64) {
	if h.DType == F64 {
		h.F64[i] = v
		return
	}
	h.F32[i] = float32(v)
}

// attention composes AttentionOps.Attention.
func (x *completed) attention(out Strided, lse *Buffer, q, k, v Strided, p AttentionParams) {
	qc, kc, vc := x.attnOperands(q, k, v, p)
	dt, bh := qc.DType, p.Batch*p.Heads
	rows, tk := p.Rows(), p.Tk
	shape := []int{rows, tk}
	row := func(b *Buffer) Strided { return at(b, 0, 1, 0) }
	m := x.attnMask(dt, p)
	rshape := []int{p.Batch, p.Heads, p.Tq}
	s := x.attnScores(qc, kc, m, p)
	mx := x.tmp(dt, rows)
	x.Reduce(Max, mx, s, rows, tk, 1)
	if m.vis != nil {
		x.masked(mx, m.aliveView(p), 0, rshape) // a row without keys: −∞ − 0 stays −∞
	}
	x.Binary(Sub, s, whole(s, shape...), row(mx), shape)
	x.Unary(Exp, s, s, 0, 0)
	x.keepVisible(s, m, p)
	x.Reduce(Sum, lse, s, rows, tk, 1)
	if m.vis != nil {
		x.masked(lse, m.aliveView(p), 1, rshape) // its weights stay 0/1 = 0
	}
	x.Binary(Div, s, whole(s, shape...), row(lse), shape)
	x.Unary(Log, lse, lse, 0, 0)
	x.Binary(Add, lse, whole(lse, rows), whole(mx, rows), []int{rows})
	if m.vis != nil {
		x.masked(lse, m.aliveView(p), math.Inf(1), rshape)
	}
	x.releaseMask(m)
	if p.Dropout > 0 {
		z := x.attnKeep(dt, p)
		x.Binary(Mul, s, whole(s, shape...), whole(z, shape...), shape)
		x.Release(z)
	}
	o := x.tmp(dt, rows*p.Dv)
	x.Gemm(dt, false, false, bh, p.Tq, p.Dv, tk, 1, s, 0, tk, p.Tq*tk, vc, 0, p.Dv, tk*p.Dv, 0, o, 0, p.Dv, p.Tq*p.Dv)
	oshape := []int{p.Batch, p.Heads, p.Tq, p.Dv}
	x.Copy(out, whole(o, oshape...), oshape)
	x.release(qc, kc, vc, s, mx, o)
}

// attentionGrad composes AttentionOps.AttentionGrad: P = exp(S − lse); dV = Pdᵀ·dO;
// dP = (dO·Vᵀ)∘Z; dS = P∘(dP − rowsum(dO∘O)); dQ = Scale·dS·K; dK = Scale·dSᵀ·Q.
func (x *completed) attentionGrad(dq, dk, dv Strided, gout, out Strided, lse *Buffer, q, k, v Strided, p AttentionParams) {
	qc, kc, vc := x.attnOperands(q, k, v, p)
	dt, bh := qc.DType, p.Batch*p.Heads
	rows, tq, tk := p.Rows(), p.Tq, p.Tk
	shape := []int{rows, tk}
	row := func(b *Buffer) Strided { return at(b, 0, 1, 0) }
	oshape := []int{p.Batch, p.Heads, tq, p.Dv}
	gc, oc := x.tmp(dt, rows*p.Dv), x.tmp(dt, rows*p.Dv)
	x.Copy(whole(gc, oshape...), gout, oshape)
	x.Copy(whole(oc, oshape...), out, oshape)

	m := x.attnMask(dt, p)
	pr := x.attnScores(qc, kc, m, p)
	x.Binary(Sub, pr, whole(pr, shape...), row(lse), shape)
	x.Unary(Exp, pr, pr, 0, 0)
	x.keepVisible(pr, m, p)
	x.releaseMask(m)
	pd := pr // the weights after dropout
	var z *Buffer
	if p.Dropout > 0 {
		z = x.attnKeep(dt, p)
		pd = x.tmp(dt, rows*tk)
		x.Binary(Mul, pd, whole(pr, shape...), whole(z, shape...), shape)
	}
	dvc := x.tmp(dt, bh*tk*p.Dv)
	x.Gemm(dt, true, false, bh, tk, p.Dv, tq, 1, pd, 0, tk, tq*tk, gc, 0, p.Dv, tq*p.Dv, 0, dvc, 0, p.Dv, tk*p.Dv)
	x.Copy(dv, whole(dvc, p.Batch, p.Heads, tk, p.Dv), []int{p.Batch, p.Heads, tk, p.Dv})

	dp := x.tmp(dt, rows*tk)
	x.Gemm(dt, false, true, bh, tq, tk, p.Dv, 1, gc, 0, p.Dv, tq*p.Dv, vc, 0, p.Dv, tk*p.Dv, 0, dp, 0, tk, tq*tk)
	if z != nil {
		x.Binary(Mul, dp, whole(dp, shape...), whole(z, shape...), shape)
	}
	di := x.tmp(dt, rows)
	x.Binary(Mul, oc, whole(oc, rows, p.Dv), whole(gc, rows, p.Dv), []int{rows, p.Dv})
	x.Reduce(Sum, di, oc, rows, p.Dv, 1)
	x.Binary(Sub, dp, whole(dp, shape...), row(di), shape)
	x.Binary(Mul, dp, whole(dp, shape...), whole(pr, shape...), shape) // dS

	dqc := x.tmp(dt, rows*p.D)
	x.Gemm(dt, false, false, bh, tq, p.D, tk, p.Scale, dp, 0, tk, tq*tk, kc, 0, p.D, tk*p.D, 0, dqc, 0, p.D, tq*p.D)
	x.Copy(dq, whole(dqc, p.Batch, p.Heads, tq, p.D), []int{p.Batch, p.Heads, tq, p.D})
	dkc := x.tmp(dt, bh*tk*p.D)
	x.Gemm(dt, true, false, bh, tk, p.D, tq, p.Scale, dp, 0, tk, tq*tk, qc, 0, p.D, tq*p.D, 0, dkc, 0, p.D, tk*p.D)
	x.Copy(dk, whole(dkc, p.Batch, p.Heads, tk, p.D), []int{p.Batch, p.Heads, tk, p.D})
	if pd != pr {
		x.Release(pd)
	}
	x.release(qc, kc, vc, gc, oc, pr, z, dvc, dp, di, dqc, dkc)
}

// topK composes SamplingOps.TopK on the host.
func (x *completed) topK(vals, idx, src *Buffer, outer, n, inner, k int, largest bool) {
	hs := x.toHost(src)
	hv, hi := NewHost(src.DType, outer*k*inner), NewHost(I64, outer*k*inner)
	row := make([]float64, n)
	pos := make([]int64, k)
	for o := range outer {
		for i := range inner {
			for j := range n {
				row[j] = hostAt(hs, (o*n+j)*inner+i)
			}
			TopKRow(pos, row, largest)
			for r, j := range pos {
				d := (o*k+r)*inner + i
				hi.I64[d] = j
				setHostAny(hv, d, hs, (o*n+int(j))*inner+i)
			}
		}
	}
	x.upload(vals, hv)
	x.upload(idx, hi)
}

// multinomial composes SamplingOps.Multinomial on the host.
func (x *completed) multinomial(dst, probs, u *Buffer, rows, n, samples int, replacement bool) {
	hp, hu := x.toHost(probs), x.toHost(u)
	hd := NewHost(I64, rows*samples)
	w := make([]float64, n)
	for r := range rows {
		for j := range n {
			w[j] = hostAt(hp, r*n+j)
		}
		MultinomialRow(hd.I64[r*samples:(r+1)*samples], w, hu.F64[r*samples:(r+1)*samples], replacement)
	}
	x.upload(dst, hd)
}

// upload copies the host buffer h into the device buffer dst.
func (x *completed) upload(dst, h *Buffer) {
	d := x.fromHost(h)
	x.Copy(whole(dst, dst.Len), whole(d, h.Len), []int{h.Len})
	if d != h {
		x.Release(d)
	}
}

// hostAt reads element i of a float32 or float64 host buffer.
func hostAt(h *Buffer, i int) float64 {
	if h.DType == F64 {
		return h.F64[i]
	}
	return float64(h.F32[i])
}

// setHostAny copies element si of src into element di of dst (same dtype).
func setHostAny(dst *Buffer, di int, src *Buffer, si int) {
	if dst.DType == F64 {
		dst.F64[di] = src.F64[si]
		return
	}
	dst.F32[di] = src.F32[si]
}
