package tensors

import "fmt"

// MaxPool2d takes the maximum over kernel×kernel windows of NCHW input with the given stride
// (no padding); the gradient goes to each window's first maximal element.
func MaxPool2d(x *Tensor, kernel, stride int) *Tensor {
	if x.Dim() != 4 {
		panic(fmt.Sprintf("tensors: MaxPool2d: need NCHW input, have shape %v", x.shape))
	}
	if kernel < 1 || stride < 1 {
		panic(fmt.Sprintf("tensors: MaxPool2d: kernel %d and stride %d must be ≥ 1", kernel, stride))
	}
	xc := x.dense()
	nb, c, h, w := xc.shape[0], xc.shape[1], xc.shape[2], xc.shape[3]
	oh, ow := (h-kernel)/stride+1, (w-kernel)/stride+1
	if h < kernel || w < kernel {
		panic(fmt.Sprintf("tensors: MaxPool2d: kernel %d larger than input %v", kernel, x.shape))
	}
	out := empty(xc.dtype, xc.dev, nb, c, oh, ow)
	arg := empty(Int64, xc.dev, nb, c, oh, ow)
	xc.be().MaxPool2d(out.buf(), arg.buf(), xc.buf(), nb*c, h, w, kernel, stride, oh, ow)
	shape := xc.shape
	releaseIfNot(xc, x)
	record(out, "MaxPool2d", []*Tensor{x}, func(g *Tensor) []*Tensor {
		gx := zeros(g.dtype, g.dev, shape...)
		gc := g.contig()
		g.be().MaxPool2dGrad(gx.buf(), gc.buf(), arg.buf(), nb*c, h, w, kernel, stride, oh, ow)
		releaseIfNot(gc, g)
		return []*Tensor{gx}
	}, arg)
	arg.release()
	return out
}
