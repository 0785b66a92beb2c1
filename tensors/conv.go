package tensors

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Conv2d is a 2-D convolution over NCHW input x with weight [out, in, kh, kw], optional bias
// [out], square stride and zero padding. The device unfolds the images into columns (im2col)
// and multiplies the filters by them; the CPU runs groups of images on every core.
func Conv2d(x, weight, bias *Tensor, stride, padding int) *Tensor {
	defer opSpan("Conv2d", x, weight, bias).End()
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
	lowp := autocastType()
	if wt.dtype == Float64 {
		lowp = Float64
	}
	be := xc.be()
	p := backend.ConvParams{Batch: nb, C: c, H: h, W: w, Out: o, KH: kh, KW: kw, Stride: stride, Pad: padding, OH: oh, OW: ow}
	out := empty(wt.dtype, x.dev, nb, o, oh, ow)
	var bb *backend.Buffer
	var bc *Tensor
	if b != nil {
		bc = b.contig()
		bb = bc.buf()
	}
	be.Conv2d(lowp.be(), out.buf(), xc2.buf(), wc.buf(), bb, p)
	releaseIfNot(bc, b)
	record(out, "Conv2d", []*Tensor{xc, wt, b}, func(g *Tensor) []*Tensor {
		gc := g.contig()
		var gx, gw, gb *Tensor
		var gxb, gwb *backend.Buffer
		if xc.requiresGrad {
			gx = empty(wt.dtype, x.dev, xc2.shape...)
			gxb = gx.buf()
		}
		if wt.requiresGrad {
			gw = empty(wt.dtype, x.dev, wc.shape...)
			gwb = gw.buf()
		}
		be.Conv2dGrad(lowp.be(), gxb, gwb, gc.buf(), xc2.buf(), wc.buf(), p)
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

func dimOr(t *Tensor, d int) int {
	if t.Dim() > d {
		return t.shape[d]
	}
	return 0
}
