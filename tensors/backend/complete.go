package backend

// Complete returns the full Backend for a device: c itself when it implements every fused op,
// otherwise a wrapper that takes each fused op from c when c has it and composes it from Core
// ops when it does not. The wrapper implements Transfer when c does. Fallbacks that must look at
// indices on the host (IndexSelect, IndexAdd, range checks) download them with Transfer.
func Complete(c Core) Backend {
	if b, ok := c.(Backend); ok {
		return b
	}
	x := &completed{Core: c}
	x.tr, _ = c.(Transfer)
	x.sm, _ = c.(SoftmaxOps)
	x.ln, _ = c.(LayerNormOps)
	x.ce, _ = c.(CrossEntropyOps)
	x.ix, _ = c.(IndexOps)
	x.cv, _ = c.(ConvOps)
	x.c2, _ = c.(Conv2dOps)
	x.pl, _ = c.(PoolOps)
	x.ap, _ = c.(AvgPoolOps)
	x.op, _ = c.(OptimizerOps)
	x.ao, _ = c.(AdaptiveOptimizerOps)
	x.fe, _ = c.(ForeachOps)
	x.at, _ = c.(AttentionOps)
	x.sa, _ = c.(SamplingOps)
	if x.tr != nil {
		return completedDevice{x, x.tr}
	}
	return x
}

// completed is a Core with the fused ops filled in.
type completed struct {
	Core
	tr Transfer
	sm SoftmaxOps
	ln LayerNormOps
	ce CrossEntropyOps
	ix IndexOps
	cv ConvOps
	c2 Conv2dOps
	pl PoolOps
	ap AvgPoolOps
	op OptimizerOps
	ao AdaptiveOptimizerOps
	fe ForeachOps
	at AttentionOps
	sa SamplingOps
}

// completedDevice is completed for a device with its own memory.
type completedDevice struct {
	*completed
	Transfer
}

// Softmax implements SoftmaxOps.
func (x *completed) Softmax(dst, src *Buffer, outer, n, inner int, log bool) {
	if x.sm != nil {
		x.sm.Softmax(dst, src, outer, n, inner, log)
		return
	}
	x.softmax(dst, src, outer, n, inner, log)
}

// SoftmaxGrad implements SoftmaxOps.
func (x *completed) SoftmaxGrad(dx, gy, y *Buffer, outer, n, inner int, log bool) {
	if x.sm != nil {
		x.sm.SoftmaxGrad(dx, gy, y, outer, n, inner, log)
		return
	}
	x.softmaxGrad(dx, gy, y, outer, n, inner, log)
}

// LayerNorm implements LayerNormOps.
func (x *completed) LayerNorm(y, mean, rstd, in, w, b *Buffer, rows, n int, eps float64) {
	if x.ln != nil {
		x.ln.LayerNorm(y, mean, rstd, in, w, b, rows, n, eps)
		return
	}
	x.layerNorm(y, mean, rstd, in, w, b, rows, n, eps)
}

// LayerNormGrad implements LayerNormOps.
func (x *completed) LayerNormGrad(dx, dw, db, gy, in, mean, rstd, w *Buffer, rows, n int) {
	if x.ln != nil {
		x.ln.LayerNormGrad(dx, dw, db, gy, in, mean, rstd, w, rows, n)
		return
	}
	x.layerNormGrad(dx, dw, db, gy, in, mean, rstd, w, rows, n)
}

// CrossEntropy implements CrossEntropyOps.
func (x *completed) CrossEntropy(loss, prob, count, logits, target *Buffer, rows, classes int, ignore int64, smoothing float64) {
	if x.ce != nil {
		x.ce.CrossEntropy(loss, prob, count, logits, target, rows, classes, ignore, smoothing)
		return
	}
	x.crossEntropy(loss, prob, count, logits, target, rows, classes, ignore, smoothing)
}

// CrossEntropyGrad implements CrossEntropyOps.
func (x *completed) CrossEntropyGrad(dlogits, gl, prob, target *Buffer, rows, classes int, ignore int64, smoothing float64) {
	if x.ce != nil {
		x.ce.CrossEntropyGrad(dlogits, gl, prob, target, rows, classes, ignore, smoothing)
		return
	}
	x.crossEntropyGrad(dlogits, gl, prob, target, rows, classes, ignore, smoothing)
}

// IndexSelect implements IndexOps.
func (x *completed) IndexSelect(dst, src, idx *Buffer, outer, n, inner int) {
	if x.ix != nil {
		x.ix.IndexSelect(dst, src, idx, outer, n, inner)
		return
	}
	x.indexSelect(dst, src, idx, outer, n, inner)
}

// IndexAdd implements IndexOps.
func (x *completed) IndexAdd(dst, src, idx *Buffer, outer, n, inner int) {
	if x.ix != nil {
		x.ix.IndexAdd(dst, src, idx, outer, n, inner)
		return
	}
	x.indexAdd(dst, src, idx, outer, n, inner)
}

// Gather implements IndexOps.
func (x *completed) Gather(dst, src, idx *Buffer, outer, n, m, inner int) {
	if x.ix != nil {
		x.ix.Gather(dst, src, idx, outer, n, m, inner)
		return
	}
	x.gather(dst, src, idx, outer, n, m, inner)
}

// ScatterAdd implements IndexOps.
func (x *completed) ScatterAdd(dst, src, idx *Buffer, outer, n, m, inner int) {
	if x.ix != nil {
		x.ix.ScatterAdd(dst, src, idx, outer, n, m, inner)
		return
	}
	x.scatterAdd(dst, src, idx, outer, n, m, inner)
}

// Im2col implements ConvOps.
func (x *completed) Im2col(col *Buffer, colOff, ldCol int, in *Buffer, xOff, c, h, w, kh, kw, stride, pad, oh, ow int) {
	if x.cv != nil {
		x.cv.Im2col(col, colOff, ldCol, in, xOff, c, h, w, kh, kw, stride, pad, oh, ow)
		return
	}
	x.im2col(col, colOff, ldCol, in, xOff, c, h, w, kh, kw, stride, pad, oh, ow)
}

// Col2im implements ConvOps.
func (x *completed) Col2im(dx *Buffer, xOff int, col *Buffer, colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow int) {
	if x.cv != nil {
		x.cv.Col2im(dx, xOff, col, colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow)
		return
	}
	x.col2im(dx, xOff, col, colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow)
}

// Conv2d implements Conv2dOps.
func (x *completed) Conv2d(lowp DType, y, in, w, b *Buffer, p ConvParams) {
	if x.c2 != nil {
		x.c2.Conv2d(lowp, y, in, w, b, p)
		return
	}
	Conv2dByColumns(x, lowp, y, in, w, b, p)
}

// Conv2dGrad implements Conv2dOps.
func (x *completed) Conv2dGrad(lowp DType, gx, gw, gy, in, w *Buffer, p ConvParams) {
	if x.c2 != nil {
		x.c2.Conv2dGrad(lowp, gx, gw, gy, in, w, p)
		return
	}
	Conv2dGradByColumns(x, lowp, gx, gw, gy, in, w, p)
}

// MaxPool2d implements PoolOps.
func (x *completed) MaxPool2d(y, arg, in *Buffer, planes, h, w, k, stride, oh, ow int) {
	if x.pl != nil {
		x.pl.MaxPool2d(y, arg, in, planes, h, w, k, stride, oh, ow)
		return
	}
	x.maxPool2d(y, arg, in, planes, h, w, k, stride, oh, ow)
}

// MaxPool2dGrad implements PoolOps.
func (x *completed) MaxPool2dGrad(dx, gy, arg *Buffer, planes, h, w, k, stride, oh, ow int) {
	if x.pl != nil {
		x.pl.MaxPool2dGrad(dx, gy, arg, planes, h, w, k, stride, oh, ow)
		return
	}
	x.maxPool2dGrad(dx, gy, arg, planes, h, w, k, stride, oh, ow)
}

// AvgPool2d implements AvgPoolOps.
func (x *completed) AvgPool2d(y, in *Buffer, p AvgPoolParams) {
	if x.ap != nil {
		x.ap.AvgPool2d(y, in, p)
		return
	}
	x.avgPool2d(y, in, p)
}

// AvgPool2dGrad implements AvgPoolOps.
func (x *completed) AvgPool2dGrad(dx, gy *Buffer, p AvgPoolParams) {
	if x.ap != nil {
		x.ap.AvgPool2dGrad(dx, gy, p)
		return
	}
	x.avgPool2dGrad(dx, gy, p)
}

// AdamStep implements OptimizerOps.
func (x *completed) AdamStep(w, g, m, v []Vec, s []AdamScalars) {
	if x.op != nil {
		x.op.AdamStep(w, g, m, v, s)
		return
	}
	for i := range w {
		x.adamStep(w[i], g[i], m[i], v[i], s[i])
	}
}

// SGDStep implements OptimizerOps.
func (x *completed) SGDStep(w, g, buf []Vec, s []SGDScalars) {
	if x.op != nil {
		x.op.SGDStep(w, g, buf, s)
		return
	}
	for i := range w {
		x.sgdStep(w[i], g[i], buf[i], s[i])
	}
}

// AdadeltaStep implements AdaptiveOptimizerOps.
func (x *completed) AdadeltaStep(w, g, sq, acc []Vec, s []AdadeltaScalars) {
	if x.ao != nil {
		x.ao.AdadeltaStep(w, g, sq, acc, s)
		return
	}
	for i := range w {
		x.adadeltaStep(w[i], g[i], sq[i], acc[i], s[i])
	}
}

// RMSpropStep implements AdaptiveOptimizerOps.
func (x *completed) RMSpropStep(w, g, sq, mom, avg []Vec, s []RMSpropScalars) {
	if x.ao != nil {
		x.ao.RMSpropStep(w, g, sq, mom, avg, s)
		return
	}
	for i := range w {
		x.rmspropStep(w[i], g[i], sq[i], mom[i], avg[i], s[i])
	}
}

// AdagradStep implements AdaptiveOptimizerOps.
func (x *completed) AdagradStep(w, g, sum []Vec, s []AdagradScalars) {
	if x.ao != nil {
		x.ao.AdagradStep(w, g, sum, s)
		return
	}
	for i := range w {
		x.adagradStep(w[i], g[i], sum[i], s[i])
	}
}

// SumSquares implements ForeachOps.
func (x *completed) SumSquares(dst *Buffer, xs []Vec) {
	if x.fe != nil {
		x.fe.SumSquares(dst, xs)
		return
	}
	x.sumSquares(dst, xs)
}

// ScaleCheck implements ForeachOps.
func (x *completed) ScaleCheck(xs []Vec, s float64, found *Buffer) {
	if x.fe != nil {
		x.fe.ScaleCheck(xs, s, found)
		return
	}
	x.scaleCheck(xs, s, found)
}

// Attention implements AttentionOps.
func (x *completed) Attention(out Strided, lse *Buffer, q, k, v Strided, p AttentionParams) {
	if x.at != nil {
		x.at.Attention(out, lse, q, k, v, p)
		return
	}
	x.attention(out, lse, q, k, v, p)
}

// AttentionGrad implements AttentionOps.
func (x *completed) AttentionGrad(dq, dk, dv Strided, gout, out Strided, lse *Buffer, q, k, v Strided, p AttentionParams) {
	if x.at != nil {
		x.at.AttentionGrad(dq, dk, dv, gout, out, lse, q, k, v, p)
		return
	}
	x.attentionGrad(dq, dk, dv, gout, out, lse, q, k, v, p)
}

// TopK implements SamplingOps.
func (x *completed) TopK(vals, idx, src *Buffer, outer, n, inner, k int, largest bool) {
	if x.sa != nil {
		x.sa.TopK(vals, idx, src, outer, n, inner, k, largest)
		return
	}
	x.topK(vals, idx, src, outer, n, inner, k, largest)
}

// Multinomial implements SamplingOps.
func (x *completed) Multinomial(dst, probs, u *Buffer, rows, n, samples int, replacement bool) {
	if x.sa != nil {
		x.sa.Multinomial(dst, probs, u, rows, n, samples, replacement)
		return
	}
	x.multinomial(dst, probs, u, rows, n, samples, replacement)
}
