package tensors

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// MaxPool2d takes the maximum over kernel×kernel windows of NCHW input with the given stride
// (no padding); the gradient goes to each window's first maximal element.
func MaxPool2d(x *Tensor, kernel, stride int) *Tensor {
	defer opSpan("MaxPool2d", x).End()
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

// AvgPool2dOptions are avg_pool2d's arguments beyond the kernel size, each zero value PyTorch's
// default.
type AvgPool2dOptions struct {
	Stride   int  // stride of the windows; 0 takes the kernel size
	Padding  int  // zeros added on every side, at most half the kernel
	CeilMode bool // round the output size up (a last window may hang over the input)
	// ExcludePad leaves padded positions out of a window's divisor (count_include_pad=False).
	ExcludePad bool
	// Divisor, when positive, divides every window's sum instead (divisor_override).
	Divisor int
}

// AvgPool2d averages kernel×kernel windows of x ([N, C, H, W] or [C, H, W]), as PyTorch's
// F.avg_pool2d(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override).
func AvgPool2d(x *Tensor, kernel int, opts AvgPool2dOptions) *Tensor {
	defer opSpan("AvgPool2d", x).End()
	if x.Dim() != 3 && x.Dim() != 4 {
		panic(fmt.Sprintf("tensors: AvgPool2d: need [N, C, H, W] or [C, H, W] input, have shape %v", x.shape))
	}
	stride := opts.Stride
	if stride == 0 {
		stride = kernel
	}
	if kernel < 1 || stride < 1 || opts.Padding < 0 || opts.Divisor < 0 {
		panic(fmt.Sprintf("tensors: AvgPool2d: kernel %d and stride %d must be ≥ 1, padding %d and divisor %d ≥ 0", kernel, stride, opts.Padding, opts.Divisor))
	}
	if opts.Padding > kernel/2 {
		panic(fmt.Sprintf("tensors: AvgPool2d: padding %d is more than half the kernel %d", opts.Padding, kernel))
	}
	h, w := x.shape[x.Dim()-2], x.shape[x.Dim()-1]
	oh, ow := poolOut(h, kernel, stride, opts.Padding, opts.CeilMode), poolOut(w, kernel, stride, opts.Padding, opts.CeilMode)
	if oh < 1 || ow < 1 {
		panic(fmt.Sprintf("tensors: AvgPool2d: input %v is too small for kernel %d, stride %d and padding %d", x.shape, kernel, stride, opts.Padding))
	}
	p := backend.AvgPoolParams{H: h, W: w, OH: oh, OW: ow, KH: kernel, KW: kernel, SH: stride, SW: stride,
		PH: opts.Padding, PW: opts.Padding, CountIncludePad: !opts.ExcludePad, Divisor: opts.Divisor}
	return avgPool("AvgPool2d", x, p)
}

// poolOut is PyTorch's pooling output size along one axis.
func poolOut(n, k, s, pad int, ceil bool) int {
	span := n + 2*pad - k
	if span < 0 {
		return 0
	}
	out := span/s + 1
	if ceil && span%s != 0 {
		out++
		if (out-1)*s >= n+pad { // the last window would start in the right padding
			out--
		}
	}
	return out
}

// AdaptiveAvgPool2d averages x ([N, C, H, W] or [C, H, W]) into outH×outW outputs, output row i
// covering input rows ⌊i·H/outH⌋ to ⌈(i+1)·H/outH⌉ (columns alike), as PyTorch's
// F.adaptive_avg_pool2d; AdaptiveAvgPool2d(x, 1, 1) is global average pooling.
func AdaptiveAvgPool2d(x *Tensor, outH, outW int) *Tensor {
	defer opSpan("AdaptiveAvgPool2d", x).End()
	if x.Dim() != 3 && x.Dim() != 4 {
		panic(fmt.Sprintf("tensors: AdaptiveAvgPool2d: need [N, C, H, W] or [C, H, W] input, have shape %v", x.shape))
	}
	if outH < 1 || outW < 1 {
		panic(fmt.Sprintf("tensors: AdaptiveAvgPool2d: output size %d×%d must be positive", outH, outW))
	}
	h, w := x.shape[x.Dim()-2], x.shape[x.Dim()-1]
	if h < 1 || w < 1 {
		panic(fmt.Sprintf("tensors: AdaptiveAvgPool2d: input %v has an empty plane", x.shape))
	}
	return avgPool("AdaptiveAvgPool2d", x, backend.AvgPoolParams{H: h, W: w, OH: outH, OW: outW, Adaptive: true})
}

// avgPool runs the average-pooling kernel over x's planes and records its gradient.
func avgPool(name string, x *Tensor, p backend.AvgPoolParams) *Tensor {
	if !x.dtype.isFloat() {
		panic(fmt.Sprintf("tensors: %s: need a floating-point input, have %s", name, x.dtype))
	}
	xc := x.dense()
	p.Planes = xc.Numel() / (p.H * p.W)
	shape := append(append([]int(nil), xc.shape[:xc.Dim()-2]...), p.OH, p.OW)
	out := empty(xc.dtype, xc.dev, shape...)
	xc.be().AvgPool2d(out.buf(), xc.buf(), p)
	inShape := xc.shape
	releaseIfNot(xc, x)
	record(out, name, []*Tensor{x}, func(g *Tensor) []*Tensor {
		gc := g.dense()
		gx := empty(gc.dtype, gc.dev, inShape...)
		gc.be().AvgPool2dGrad(gx.buf(), gc.buf(), p)
		releaseIfNot(gc, g)
		return []*Tensor{gx}
	})
	return out
}
