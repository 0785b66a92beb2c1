package tensors

import "fmt"

// Conv2d is a 2-D convolution over NCHW input x with weight [out, in, kh, kw], optional bias
// [out], square stride and zero padding; it runs as im2col + gemm per image.
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
	xc, wt := promote("Conv2d", x.computableKeepHalf(), weight.computableKeepHalf())
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
	ckk, l := c*kh*kw, oh*ow
	out := empty(wt.dtype, xc.dev, nb, o, oh, ow)
	beta := 0.0
	if b != nil {
		out.be().Copy(out.strided(), b.Reshape(1, o, 1, 1).bcast(out.shape), out.shape)
		beta = 1
	}
	col := empty(wt.dtype, xc.dev, ckk, l)
	for n := 0; n < nb; n++ {
		be.Im2col(col.buf, xc2.buf, n*c*h*w, c, h, w, kh, kw, stride, padding, oh, ow)
		be.Gemm(lowp.be(), false, false, 1, o, l, ckk, 1, wc.buf, 0, ckk, 0, col.buf, 0, l, 0, beta, out.buf, n*o*l, l, 0)
	}
	be.Release(col.buf)
	record(out, "Conv2d", []*Tensor{xc, wt, b}, func(g *Tensor) []*Tensor {
		gc := g.contig()
		var gx, gw, gb *Tensor
		if xc.requiresGrad {
			gx = zeros(wt.dtype, xc.dev, xc.shape...)
		}
		if wt.requiresGrad {
			gw = zeros(wt.dtype, xc.dev, wt.shape...)
		}
		col := empty(wt.dtype, xc.dev, ckk, l)
		for n := 0; n < nb; n++ {
			if gw != nil {
				be.Im2col(col.buf, xc2.buf, n*c*h*w, c, h, w, kh, kw, stride, padding, oh, ow)
				be.Gemm(lowp.be(), false, true, 1, o, ckk, l, 1, gc.buf, n*o*l, l, 0, col.buf, 0, l, 0, 1, gw.buf, 0, ckk, 0)
			}
			if gx != nil {
				be.Gemm(lowp.be(), true, false, 1, ckk, l, o, 1, wc.buf, 0, ckk, 0, gc.buf, n*o*l, l, 0, 0, col.buf, 0, l, 0)
				be.Col2im(gx.buf, col.buf, n*c*h*w, c, h, w, kh, kw, stride, padding, oh, ow)
			}
		}
		be.Release(col.buf)
		if b != nil && b.requiresGrad {
			gb = sumRaw(gc, []int{0, 2, 3}).Reshape(o)
		}
		return []*Tensor{gx, gw, gb}
	})
	return out
}

func dimOr(t *Tensor, d int) int {
	if t.Dim() > d {
		return t.shape[d]
	}
	return 0
}

// MaxPool2d takes the maximum over kernel×kernel windows of NCHW input with the given stride
// (no padding); the gradient goes to each window's first maximal element.
func MaxPool2d(x *Tensor, kernel, stride int) *Tensor {
	if x.Dim() != 4 {
		panic(fmt.Sprintf("tensors: MaxPool2d: need NCHW input, have shape %v", x.shape))
	}
	if kernel < 1 || stride < 1 {
		panic(fmt.Sprintf("tensors: MaxPool2d: kernel %d and stride %d must be ≥ 1", kernel, stride))
	}
	xc := x.computable().contig()
	nb, c, h, w := xc.shape[0], xc.shape[1], xc.shape[2], xc.shape[3]
	oh, ow := (h-kernel)/stride+1, (w-kernel)/stride+1
	if h < kernel || w < kernel {
		panic(fmt.Sprintf("tensors: MaxPool2d: kernel %d larger than input %v", kernel, x.shape))
	}
	out := empty(xc.dtype, xc.dev, nb, c, oh, ow)
	arg := empty(Int64, xc.dev, nb, c, oh, ow)
	xc.be().MaxPool2d(out.buf, arg.buf, xc.buf, nb*c, h, w, kernel, stride, oh, ow)
	record(out, "MaxPool2d", []*Tensor{x}, func(g *Tensor) []*Tensor {
		gx := zeros(g.dtype, g.dev, xc.shape...)
		g.be().MaxPool2dGrad(gx.buf, g.contig().buf, arg.buf, nb*c, h, w, oh, ow)
		return []*Tensor{gx}
	})
	return out
}
