package sim

import "github.com/goaccel/goaccel/tensors/backend"

// fused is a simulated device with every fused op, run by the CPU kernels on the hidden buffers.
type fused struct{ *Device }

func (f *fused) vecs(vs []backend.Vec) []backend.Vec {
	out := make([]backend.Vec, len(vs))
	for i, v := range vs {
		out[i] = backend.Vec{Buf: f.host(v.Buf), Off: v.Off, Len: v.Len}
	}
	return out
}

func (f *fused) Softmax(dst, src *backend.Buffer, outer, n, inner int, log bool) {
	f.cpu.Softmax(f.host(dst), f.host(src), outer, n, inner, log)
}

func (f *fused) SoftmaxGrad(dx, gy, y *backend.Buffer, outer, n, inner int, log bool) {
	f.cpu.SoftmaxGrad(f.host(dx), f.host(gy), f.host(y), outer, n, inner, log)
}

func (f *fused) LayerNorm(y, mean, rstd, x, w, b *backend.Buffer, rows, n int, eps float64) {
	f.cpu.LayerNorm(f.host(y), f.host(mean), f.host(rstd), f.host(x), f.host(w), f.host(b), rows, n, eps)
}

func (f *fused) LayerNormGrad(dx, dw, db, gy, x, mean, rstd, w *backend.Buffer, rows, n int) {
	f.cpu.LayerNormGrad(f.host(dx), f.host(dw), f.host(db), f.host(gy), f.host(x), f.host(mean), f.host(rstd), f.host(w), rows, n)
}

func (f *fused) CrossEntropy(loss, prob, count, logits, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	f.cpu.CrossEntropy(f.host(loss), f.host(prob), f.host(count), f.host(logits), f.host(target), rows, classes, ignore, smoothing)
}

func (f *fused) CrossEntropyGrad(dlogits, gl, prob, target *backend.Buffer, rows, classes int, ignore int64, smoothing float64) {
	f.cpu.CrossEntropyGrad(f.host(dlogits), f.host(gl), f.host(prob), f.host(target), rows, classes, ignore, smoothing)
}

func (f *fused) IndexSelect(dst, src, idx *backend.Buffer, outer, n, inner int) {
	f.cpu.IndexSelect(f.host(dst), f.host(src), f.host(idx), outer, n, inner)
}

func (f *fused) IndexAdd(dst, src, idx *backend.Buffer, outer, n, inner int) {
	f.cpu.IndexAdd(f.host(dst), f.host(src), f.host(idx), outer, n, inner)
}

func (f *fused) Gather(dst, src, idx *backend.Buffer, outer, n, m, inner int) {
	f.cpu.Gather(f.host(dst), f.host(src), f.host(idx), outer, n, m, inner)
}

func (f *fused) ScatterAdd(dst, src, idx *backend.Buffer, outer, n, m, inner int) {
	f.cpu.ScatterAdd(f.host(dst), f.host(src), f.host(idx), outer, n, m, inner)
}

func (f *fused) Im2col(col *backend.Buffer, colOff, ldCol int, x *backend.Buffer, xOff, c, h, w, kh, kw, stride, pad, oh, ow int) {
	f.cpu.Im2col(f.host(col), colOff, ldCol, f.host(x), xOff, c, h, w, kh, kw, stride, pad, oh, ow)
}

func (f *fused) Col2im(dx *backend.Buffer, xOff int, col *backend.Buffer, colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow int) {
	f.cpu.Col2im(f.host(dx), xOff, f.host(col), colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow)
}

func (f *fused) Conv2d(lowp backend.DType, y, x, w, b *backend.Buffer, p backend.ConvParams) {
	f.cpu.Conv2d(lowp, f.host(y), f.host(x), f.host(w), f.host(b), p)
}

func (f *fused) Conv2dGrad(lowp backend.DType, gx, gw, gy, x, w *backend.Buffer, p backend.ConvParams) {
	f.cpu.Conv2dGrad(lowp, f.host(gx), f.host(gw), f.host(gy), f.host(x), f.host(w), p)
}

func (f *fused) MaxPool2d(y, arg, x *backend.Buffer, planes, h, w, k, stride, oh, ow int) {
	f.cpu.MaxPool2d(f.host(y), f.host(arg), f.host(x), planes, h, w, k, stride, oh, ow)
}

func (f *fused) MaxPool2dGrad(dx, gy, arg *backend.Buffer, planes, h, w, k, stride, oh, ow int) {
	f.cpu.MaxPool2dGrad(f.host(dx), f.host(gy), f.host(arg), planes, h, w, k, stride, oh, ow)
}

func (f *fused) AdamStep(w, g, m, v []backend.Vec, s []backend.AdamScalars) {
	f.cpu.AdamStep(f.vecs(w), f.vecs(g), f.vecs(m), f.vecs(v), s)
}

func (f *fused) SGDStep(w, g, buf []backend.Vec, s []backend.SGDScalars) {
	f.cpu.SGDStep(f.vecs(w), f.vecs(g), f.vecs(buf), s)
}

func (f *fused) SumSquares(dst *backend.Buffer, xs []backend.Vec) {
	f.cpu.SumSquares(f.host(dst), f.vecs(xs))
}

func (f *fused) ScaleCheck(xs []backend.Vec, s float64, found *backend.Buffer) {
	f.cpu.ScaleCheck(f.vecs(xs), s, f.host(found))
}

func (f *fused) Attention(out backend.Strided, lse *backend.Buffer, q, k, v backend.Strided, p backend.AttentionParams) {
	f.cpu.Attention(f.view(out), f.host(lse), f.view(q), f.view(k), f.view(v), p)
}

func (f *fused) AttentionGrad(dq, dk, dv, gout, out backend.Strided, lse *backend.Buffer, q, k, v backend.Strided, p backend.AttentionParams) {
	f.cpu.AttentionGrad(f.view(dq), f.view(dk), f.view(dv), f.view(gout), f.view(out), f.host(lse), f.view(q), f.view(k), f.view(v), p)
}

func (f *fused) TopK(vals, idx, src *backend.Buffer, outer, n, inner, k int, largest bool) {
	f.cpu.TopK(f.host(vals), f.host(idx), f.host(src), outer, n, inner, k, largest)
}

func (f *fused) Multinomial(dst, probs, u *backend.Buffer, rows, n, samples int, replacement bool) {
	f.cpu.Multinomial(f.host(dst), f.host(probs), f.host(u), rows, n, samples, replacement)
}

var _ backend.Backend = (*fused)(nil)
