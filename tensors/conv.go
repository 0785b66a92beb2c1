package tensors

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/backend"
)

// convColumns bounds the im2col buffer (elements) so large batches run in chunks of images.
const convColumns = 1 << 22

// Conv2d is a 2-D convolution over NCHW input x with weight [out, in, kh, kw], optional bias
// [out], square stride and zero padding. It unfolds a chunk of images side by side (im2col)
// and runs one gemm per chunk.
func Conv2d(x, weight, bias *Tensor, stride, padding int) *Tensor {
	if x.Dim() != 4 || weight.Dim() != 4 || x.shape[1] != weight.shape[1] {
		panic(fmt.Sprintf("tensors: Conv2d: input shape %v and weight shape %v do not match (need NCHW input and weight [out, %d, kh, kw])", x.shape, weight.shape, dimOr(x, 1)))
	}
	if stride < 1 || padding < 0 {
		panic(fmt.Sprintf("tensors: Conv2d: stride %d must be ≥ 1 and padding %d ≥ 0", stride, padding))
	}
	nb, c, h, w := x.shape[0], x.shape[1], x.shape[2], x.shape[3]
	o, kh, kw := weight.shape[0], weight.shape[2], weight.shape[3]
	oh, ow := (h+2*padding-kh)/stride+1, (w+2*padding-kw)/stride+1
	if oh <= 0 || ow <= 0 {
		panic(fmt.Sprintf("tensors: Conv2d: kernel %dx%d larger than padded input %v", kh, kw, x.shape))
	}
	if bias != nil && (bias.Dim() != 1 || bias.shape[0] != o) {
		panic(fmt.Sprintf("tensors: Conv2d: bias shape %v does not match weight shape %v", bias.shape, weight.shape))
	}
	checkDevices("Conv2d", x, weight, bias)
	xc, wt := promote("Conv2d", x.gemmOperand(), weight.gemmOperand())
	xc2, wc := xc.contig(), wt.contig()
	var b *Tensor
	if bias != nil {
		b = bias.AsType(wt.dtype)
	}
	cv := &conv{be: xc.be(), dt: wt.dtype, lowp: autocastType(), nb: nb, c: c, h: h, w: w, o: o,
		kh: kh, kw: kw, stride: stride, pad: padding, oh: oh, ow: ow}
	if wt.dtype == Float64 {
		cv.lowp = Float64
	}
	out := cv.forward(xc2, wc)
	if b != nil {
		bv := b.view([]int{1, o, 1, 1}, []int{0, b.strides[0], 0, 0}, b.offset)
		cv.be.Binary(backend.Add, out.buf(), out.strided(), bv.bcast(out.shape), out.shape)
		bv.release()
	}
	record(out, "Conv2d", []*Tensor{xc, wt, b}, func(g *Tensor) []*Tensor {
		gc := g.contig()
		gx, gw := cv.backward(gc, xc2, wc, xc.requiresGrad, wt.requiresGrad)
		var gb *Tensor
		if b != nil && b.requiresGrad {
			s := sumRaw(gc, []int{0, 2, 3})
			gb = handOver(s, s.Reshape(o))
		}
		releaseIfNot(gc, g)
		return []*Tensor{gx, gw, gb}
	}, xc2, wc)
	releaseIfNot(xc2, xc)
	releaseIfNot(wc, wt)
	releaseIfNot(xc, x)
	releaseIfNot(wt, weight)
	releaseIfNot(b, bias)
	return out
}

// conv holds one convolution's geometry.
type conv struct {
	be                                          backend.Backend
	dt, lowp                                    DType
	nb, c, h, w, o, kh, kw, stride, pad, oh, ow int
}

func (cv *conv) ckk() int { return cv.c * cv.kh * cv.kw }
func (cv *conv) l() int   { return cv.oh * cv.ow }

// chunk is how many images share one gemm. Large images go one at a time: the gemm reads and
// writes the NCHW tensors in place and the column buffer stays in cache. Small ones are batched
// side by side so each gemm has enough columns, at the price of a reordering copy.
func (cv *conv) chunk() int {
	if cv.l() >= 256 {
		return 1
	}
	want := (1024 + cv.l() - 1) / cv.l()
	return max(1, min(cv.nb, want, convColumns/max(1, cv.ckk()*cv.l())))
}

// unfold writes images n0..n0+nc side by side into col [ckk, nc*l].
func (cv *conv) unfold(col, x *Tensor, n0, nc int) {
	for i := 0; i < nc; i++ {
		cv.be.Im2col(col.buf(), i*cv.l(), nc*cv.l(), x.buf(), (n0+i)*cv.c*cv.h*cv.w, cv.c, cv.h, cv.w, cv.kh, cv.kw, cv.stride, cv.pad, cv.oh, cv.ow)
	}
}

func (cv *conv) forward(x, w *Tensor) *Tensor {
	o, l, ckk := cv.o, cv.l(), cv.ckk()
	out := empty(cv.dt, x.dev, cv.nb, o, cv.oh, cv.ow)
	ch := cv.chunk()
	col := empty(cv.dt, x.dev, ckk*ch*l)
	tmp := empty(cv.dt, x.dev, o*ch*l)
	for n0 := 0; n0 < cv.nb; n0 += ch {
		nc := min(ch, cv.nb-n0)
		cv.unfold(col, x, n0, nc)
		cols := nc * l
		if nc == 1 {
			cv.be.Gemm(cv.lowp.be(), false, false, 1, o, l, ckk, 1, w.buf(), 0, ckk, 0, col.buf(), 0, l, 0, 0, out.buf(), n0*o*l, l, 0)
			continue
		}
		cv.be.Gemm(cv.lowp.be(), false, false, 1, o, cols, ckk, 1, w.buf(), 0, ckk, 0, col.buf(), 0, cols, 0, 0, tmp.buf(), 0, cols, 0)
		// tmp is [o, nc, l]; out wants [nc, o, l].
		cv.be.Copy(backend.Strided{Buf: out.buf(), Offset: n0 * o * l, Strides: []int{o * l, l, 1}},
			backend.Strided{Buf: tmp.buf(), Strides: []int{l, cols, 1}}, []int{nc, o, l})
	}
	col.release()
	tmp.release()
	return out
}

func (cv *conv) backward(g, x, w *Tensor, needX, needW bool) (gx, gw *Tensor) {
	o, l, ckk := cv.o, cv.l(), cv.ckk()
	if needX {
		gx = zeros(cv.dt, x.dev, x.shape...)
	}
	// The weight gradient is accumulated transposed, gwT [ckk, o] = Σ col·gᵀ, then copied out:
	// ckk rows and o columns tile the gemm's kernel better than o rows and ckk columns do
	// (with 32 outputs and 16×3×3 columns, 144 rows are twelve 12-row tiles and 32 columns
	// one 32-wide tile, where [o, ckk] pads to 36×160 and finishes ragged tiles in a scratch).
	var gwT *Tensor
	if needW {
		gw = empty(cv.dt, x.dev, w.shape...)
		gwT = zeros(cv.dt, x.dev, ckk, o)
	}
	ch := cv.chunk()
	col := empty(cv.dt, x.dev, ckk*ch*l)
	gt := empty(cv.dt, x.dev, o*ch*l)
	for n0 := 0; n0 < cv.nb; n0 += ch {
		nc := min(ch, cv.nb-n0)
		cols := nc * l
		// gs/gOff address this chunk's output gradient as [o, cols]: in place for one image,
		// else reordered from [nc, o, l] into gt.
		gs, gOff := g.buf(), n0*o*l
		if nc > 1 {
			cv.be.Copy(backend.Strided{Buf: gt.buf(), Strides: []int{l, cols, 1}},
				backend.Strided{Buf: g.buf(), Offset: n0 * o * l, Strides: []int{o * l, l, 1}}, []int{nc, o, l})
			gs, gOff = gt.buf(), 0
		}
		if needW {
			cv.unfold(col, x, n0, nc)
			cv.be.Gemm(cv.lowp.be(), false, true, 1, ckk, o, cols, 1, col.buf(), 0, cols, 0, gs, gOff, cols, 0, 1, gwT.buf(), 0, o, 0)
		}
		if needX {
			cv.be.Gemm(cv.lowp.be(), true, false, 1, ckk, cols, o, 1, w.buf(), 0, ckk, 0, gs, gOff, cols, 0, 0, col.buf(), 0, cols, 0)
			for i := 0; i < nc; i++ {
				cv.be.Col2im(gx.buf(), (n0+i)*cv.c*cv.h*cv.w, col.buf(), i*l, cols, cv.c, cv.h, cv.w, cv.kh, cv.kw, cv.stride, cv.pad, cv.oh, cv.ow)
			}
		}
	}
	if needW {
		cv.be.Copy(backend.Strided{Buf: gw.buf(), Strides: []int{ckk, 1}},
			backend.Strided{Buf: gwT.buf(), Strides: []int{1, o}}, []int{o, ckk})
		gwT.release()
	}
	col.release()
	gt.release()
	return gx, gw
}

func dimOr(t *Tensor, d int) int {
	if t.Dim() > d {
		return t.shape[d]
	}
	return 0
}
