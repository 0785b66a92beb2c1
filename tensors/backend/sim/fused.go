package sim

import "github.com/goaccel/goaccel/tensors/backend"

// fused is a simulated device with every fused op, run by the CPU kernels on the hidden buffers.
type fused struct{ *Device }

// useVecs is use for kernels over vectors: it returns each group of vecs on the hidden buffers,
// and the hidden buffers of extra (the kernel's other operands). The groups' own buffers stay
// in the caller's slices, which keep them alive: CollectEachKernel checks only extra for these
// kernels.
func (f *fused) useVecs(kernel string, extra []*backend.Buffer, groups ...[]backend.Vec) ([][]backend.Vec, []*backend.Buffer) {
	var bs []*backend.Buffer
	for _, g := range groups {
		for _, v := range g {
			bs = append(bs, v.Buf)
		}
	}
	bs = append(bs, extra...)
	clear(extra)
	hs := f.use(kernel, bs...)
	out := make([][]backend.Vec, len(groups))
	k := 0
	for gi, g := range groups {
		out[gi] = make([]backend.Vec, len(g))
		for i, v := range g {
			out[gi][i] = backend.Vec{Buf: hs[k], Off: v.Off, Len: v.Len}
			k++
		}
	}
	return out, hs[k:]
}

func (f *fused) Softmax(dst, src *backend.Buffer, outer, n, inner int, log bool) {
	h := f.use("Softmax", dst, src)
	f.cpu.Softmax(h[0], h[1], outer, n, inner, log)
}

func (f *fused) SoftmaxGrad(dx, gy, y *backend.Buffer, outer, n, inner int, log bool) {
	h := f.use("SoftmaxGrad", dx, gy, y)
	f.cpu.SoftmaxGrad(h[0], h[1], h[2], outer, n, inner, log)
}

func (f *fused) LayerNorm(y, mean, rstd, x, w, b *backend.Buffer, rows, n int, eps float64) {
	h := f.use("LayerNorm", y, mean, rstd, x, w, b)
	f.cpu.LayerNorm(h[0], h[1], h[2], h[3], h[4], h[5], rows, n, eps)
}

func (f *fused) LayerNormGrad(dx, dw, db, gy, x, mean, rstd, w *backend.Buffer, rows, n int) {
	h := f.use("LayerNormGrad", dx, dw, db, gy, x, mean, rstd, w)
	f.cpu.LayerNormGrad(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], rows, n)
}

func (f *fused) CrossEntropy(loss, prob, count, logits, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	h := f.use("CrossEntropy", loss, prob, count, logits, target)
	f.cpu.CrossEntropy(h[0], h[1], h[2], h[3], h[4], rows, classes, ignore, smoothing)
}

func (f *fused) CrossEntropyGrad(dlogits, gl, prob, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	h := f.use("CrossEntropyGrad", dlogits, gl, prob, target)
	f.cpu.CrossEntropyGrad(h[0], h[1], h[2], h[3], rows, classes, ignore, smoothing)
}

func (f *fused) IndexSelect(dst, src, idx *backend.Buffer, outer, n, inner int) {
	h := f.use("IndexSelect", dst, src, idx)
	f.cpu.IndexSelect(h[0], h[1], h[2], outer, n, inner)
}

func (f *fused) IndexAdd(dst, src, idx *backend.Buffer, outer, n, inner int) {
	h := f.use("IndexAdd", dst, src, idx)
	f.cpu.IndexAdd(h[0], h[1], h[2], outer, n, inner)
}

func (f *fused) Gather(dst, src, idx *backend.Buffer, outer, n, m, inner int) {
	h := f.use("Gather", dst, src, idx)
	f.cpu.Gather(h[0], h[1], h[2], outer, n, m, inner)
}

func (f *fused) ScatterAdd(dst, src, idx *backend.Buffer, outer, n, m, inner int) {
	h := f.use("ScatterAdd", dst, src, idx)
	f.cpu.ScatterAdd(h[0], h[1], h[2], outer, n, m, inner)
}

func (f *fused) Im2col(col *backend.Buffer, colOff, ldCol int, x *backend.Buffer, xOff, c, hh, w, kh, kw, stride, pad, oh, ow int) {
	h := f.use("Im2col", col, x)
	f.cpu.Im2col(h[0], colOff, ldCol, h[1], xOff, c, hh, w, kh, kw, stride, pad, oh, ow)
}

func (f *fused) Col2im(dx *backend.Buffer, xOff int, col *backend.Buffer, colOff, ldCol, c, hh, w, kh, kw, stride, pad, oh, ow int) {
	h := f.use("Col2im", dx, col)
	f.cpu.Col2im(h[0], xOff, h[1], colOff, ldCol, c, hh, w, kh, kw, stride, pad, oh, ow)
}

func (f *fused) Conv2d(lowp backend.DType, y, x, w, b *backend.Buffer, p backend.ConvParams) {
	h := f.use("Conv2d", y, x, w, b)
	f.cpu.Conv2d(lowp, h[0], h[1], h[2], h[3], p)
}

func (f *fused) Conv2dGrad(lowp backend.DType, gx, gw, gy, x, w *backend.Buffer, p backend.ConvParams) {
	h := f.use("Conv2dGrad", gx, gw, gy, x, w)
	f.cpu.Conv2dGrad(lowp, h[0], h[1], h[2], h[3], h[4], p)
}

func (f *fused) MaxPool2d(y, arg, x *backend.Buffer, planes, hh, w, k, stride, oh, ow int) {
	h := f.use("MaxPool2d", y, arg, x)
	f.cpu.MaxPool2d(h[0], h[1], h[2], planes, hh, w, k, stride, oh, ow)
}

func (f *fused) MaxPool2dGrad(dx, gy, arg *backend.Buffer, planes, hh, w, k, stride, oh, ow int) {
	h := f.use("MaxPool2dGrad", dx, gy, arg)
	f.cpu.MaxPool2dGrad(h[0], h[1], h[2], planes, hh, w, k, stride, oh, ow)
}

func (f *fused) AvgPool2d(y, x *backend.Buffer, p backend.AvgPoolParams) {
	h := f.use("AvgPool2d", y, x)
	f.cpu.AvgPool2d(h[0], h[1], p)
}

func (f *fused) AvgPool2dGrad(dx, gy *backend.Buffer, p backend.AvgPoolParams) {
	h := f.use("AvgPool2dGrad", dx, gy)
	f.cpu.AvgPool2dGrad(h[0], h[1], p)
}

func (f *fused) AdadeltaStep(w, g, sq, acc []backend.Vec, s []backend.AdadeltaScalars) {
	vs, _ := f.useVecs("AdadeltaStep", nil, w, g, sq, acc)
	f.cpu.AdadeltaStep(vs[0], vs[1], vs[2], vs[3], s)
}

func (f *fused) RMSpropStep(w, g, sq, mom, avg []backend.Vec, s []backend.RMSpropScalars) {
	vs, _ := f.useVecs("RMSpropStep", nil, w, g, sq, mom, avg)
	f.cpu.RMSpropStep(vs[0], vs[1], vs[2], vs[3], vs[4], s)
}

func (f *fused) AdagradStep(w, g, sum []backend.Vec, s []backend.AdagradScalars) {
	vs, _ := f.useVecs("AdagradStep", nil, w, g, sum)
	f.cpu.AdagradStep(vs[0], vs[1], vs[2], s)
}

func (f *fused) AdamStep(w, g, m, v []backend.Vec, s []backend.AdamScalars) {
	vs, _ := f.useVecs("AdamStep", nil, w, g, m, v)
	f.cpu.AdamStep(vs[0], vs[1], vs[2], vs[3], s)
}

func (f *fused) SGDStep(w, g, buf []backend.Vec, s []backend.SGDScalars) {
	vs, _ := f.useVecs("SGDStep", nil, w, g, buf)
	f.cpu.SGDStep(vs[0], vs[1], vs[2], s)
}

func (f *fused) SumSquares(dst *backend.Buffer, xs []backend.Vec) {
	vs, h := f.useVecs("SumSquares", []*backend.Buffer{dst}, xs)
	f.cpu.SumSquares(h[0], vs[0])
}

func (f *fused) ScaleCheck(xs []backend.Vec, s float64, found *backend.Buffer) {
	vs, h := f.useVecs("ScaleCheck", []*backend.Buffer{found}, xs)
	f.cpu.ScaleCheck(vs[0], s, h[0])
}

func (f *fused) Attention(out backend.Strided, lse *backend.Buffer, q, k, v backend.Strided, p backend.AttentionParams) {
	h := f.use("Attention", take(&out), lse, take(&q), take(&k), take(&v), takeMask(&p))
	p.KeyMask = h[5]
	f.cpu.Attention(on(h[0], out), h[1], on(h[2], q), on(h[3], k), on(h[4], v), p)
}

func (f *fused) AttentionGrad(dq, dk, dv, gout, out backend.Strided, lse *backend.Buffer, q, k, v backend.Strided, p backend.AttentionParams) {
	h := f.use("AttentionGrad", take(&dq), take(&dk), take(&dv), take(&gout), take(&out), lse, take(&q), take(&k), take(&v), takeMask(&p))
	p.KeyMask = h[9]
	f.cpu.AttentionGrad(on(h[0], dq), on(h[1], dk), on(h[2], dv), on(h[3], gout), on(h[4], out), h[5], on(h[6], q), on(h[7], k), on(h[8], v), p)
}

// takeMask is take for the key padding mask of an attention call (nil when it has none).
func takeMask(p *backend.AttentionParams) *backend.Buffer {
	b := p.KeyMask
	p.KeyMask = nil
	return b
}

func (f *fused) TopK(vals, idx, src *backend.Buffer, outer, n, inner, k int, largest bool) {
	h := f.use("TopK", vals, idx, src)
	f.cpu.TopK(h[0], h[1], h[2], outer, n, inner, k, largest)
}

func (f *fused) Multinomial(dst, probs, u *backend.Buffer, rows, n, samples int, replacement bool) {
	h := f.use("Multinomial", dst, probs, u)
	f.cpu.Multinomial(h[0], h[1], h[2], rows, n, samples, replacement)
}

var _ backend.Backend = (*fused)(nil)
