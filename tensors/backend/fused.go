package backend

// The optional fused ops. Each interface is all-or-nothing: a device that implements one runs
// both directions of its op (their saved state, like MaxPool2d's argmax positions, is private to
// the device's own pair of kernels).

// SoftmaxOps computes softmax and log-softmax over the middle axis.
type SoftmaxOps interface {
	// Softmax computes softmax (or log-softmax) over the middle axis of [outer, n, inner].
	Softmax(dst, src *Buffer, outer, n, inner int, log bool)
	// SoftmaxGrad computes the input gradient of Softmax given its output y and upstream gy.
	SoftmaxGrad(dx, gy, y *Buffer, outer, n, inner int, log bool)
}

// LayerNormOps normalises rows.
type LayerNormOps interface {
	// LayerNorm normalises the rows of x [rows, n]; it writes y and the per-row mean and
	// reciprocal standard deviation (float64 rows for float64 tensors, float32 otherwise). w and b
	// may be nil.
	LayerNorm(y, mean, rstd, x, w, b *Buffer, rows, n int, eps float64)
	// LayerNormGrad computes dx, and accumulates dw, db when they are non-nil.
	LayerNormGrad(dx, dw, db, gy, x, mean, rstd, w *Buffer, rows, n int)
}

// CrossEntropyOps is the fused log-softmax + negative log likelihood.
type CrossEntropyOps interface {
	// CrossEntropy computes per-row losses of logits [rows, classes] against int64 targets and
	// the row softmax (kept for the backward pass). Rows whose target is ignore get loss 0; a
	// target outside [0, classes) panics. count, when not nil, receives the number of rows whose
	// target is not ignore (one element of the logits' type: the mean's divisor).
	CrossEntropy(loss, prob, count, logits, target *Buffer, rows, classes int, ignore int64, smoothing float64)
	// CrossEntropyGrad writes dlogits given per-row upstream gradients gl (one element: the same
	// for every row).
	CrossEntropyGrad(dlogits, gl, prob, target *Buffer, rows, classes int, ignore int64, smoothing float64)
}

// IndexOps gathers and scatters along an axis with int64 indices; an index out of range panics.
type IndexOps interface {
	// IndexSelect gathers rows: dst[o, j, i] = src[o, idx[j], i] for src [outer, n, inner].
	IndexSelect(dst, src, idx *Buffer, outer, n, inner int)
	// IndexAdd scatters rows back: dst[o, idx[j], i] += src[o, j, i].
	IndexAdd(dst, src, idx *Buffer, outer, n, inner int)
	// Gather: dst[o, j, i] = src[o, idx[o, j, i], i], src [outer, n, inner], idx [outer, m, inner].
	Gather(dst, src, idx *Buffer, outer, n, m, inner int)
	// ScatterAdd is the adjoint of Gather: dst[o, idx[o, j, i], i] += src[o, j, i].
	ScatterAdd(dst, src, idx *Buffer, outer, n, m, inner int)
}

// ConvOps unfolds images for convolution as a gemm.
type ConvOps interface {
	// Im2col unfolds the CHW image at xOff into a [C*KH*KW, OH*OW] block of col starting at
	// colOff with row stride ldCol (several images side by side share one gemm).
	Im2col(col *Buffer, colOff, ldCol int, x *Buffer, xOff, c, h, w, kh, kw, stride, pad, oh, ow int)
	// Col2im accumulates such a block back into the image gradient (adjoint of Im2col).
	Col2im(dx *Buffer, xOff int, col *Buffer, colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow int)
}

// Conv2dOps runs whole convolution passes, so a device schedules the images itself (the CPU
// gives each core its own images and keeps their unfolded columns in its cache). The composed
// forms, Conv2dByColumns and Conv2dGradByColumns, unfold with ConvOps and multiply with Gemm.
type Conv2dOps interface {
	// Conv2d writes y [Batch, Out, OH, OW], the filters w [Out, C, KH, KW] applied to the images
	// x [Batch, C, H, W], plus bias b [Out] when b is not nil; lowp is Gemm's.
	Conv2d(lowp DType, y, x, w, b *Buffer, p ConvParams)
	// Conv2dGrad writes the input gradient gx and the weight gradient gw given the output
	// gradient gy; either may be nil when it is not wanted.
	Conv2dGrad(lowp DType, gx, gw, gy, x, w *Buffer, p ConvParams)
}

// PoolOps is 2-D max pooling.
type PoolOps interface {
	// MaxPool2d pools NCHW planes with a k×k window, recording each output's source in arg.
	MaxPool2d(y, arg, x *Buffer, planes, h, w, k, stride, oh, ow int)
	// MaxPool2dGrad routes gy to the positions MaxPool2d recorded.
	MaxPool2dGrad(dx, gy, arg *Buffer, planes, h, w, k, stride, oh, ow int)
}

// AvgPoolOps is 2-D average pooling, with fixed windows (AvgPool2d) or adaptive ones
// (AdaptiveAvgPool2d), over NCHW planes (avgpool.go describes the windows).
type AvgPoolOps interface {
	AvgPool2d(y, x *Buffer, p AvgPoolParams)
	// AvgPool2dGrad overwrites dx with the input gradient given the output gradient gy.
	AvgPool2dGrad(dx, gy *Buffer, p AvgPoolParams)
}

// Vec is a contiguous run of Len elements of a buffer starting at Off.
type Vec struct {
	Buf      *Buffer
	Off, Len int
}

// AdamScalars are one parameter's constants for an Adam step, in float32 as the update
// computes, in PyTorch's order of operations (no fused multiply-adds):
//
//	g ← g + L2·w (only when L2 ≠ 0)
//	m ← β1·m + (1−β1)·g        v ← β2·v + (1−β2)·g·g
//	w ← w·Shrink + StepSize·(m / (√v/BC2 + Eps))
//
// StepSize is −lr/(1−β1ᵗ), BC2 is √(1−β2ᵗ) and Shrink AdamW's 1−lr·wd (1 for Adam).
type AdamScalars struct {
	Beta1, OneMinusBeta1, Beta2, OneMinusBeta2, BC2, Eps, StepSize, Shrink, L2 float32
}

// SGDScalars are one parameter's constants for an SGD step (torch.optim.SGD):
//
//	g ← g + WeightDecay·w
//	b ← g (First), else b ← Momentum·b + OneMinusDampening·g
//	g ← g + Momentum·b (Nesterov) or b
//	w ← w − LR·g
//
// Without momentum (Momentum 0 and no buffer) only the first and last lines apply.
type SGDScalars struct {
	LR, WeightDecay, Momentum, OneMinusDampening float32
	Nesterov, First                              bool
}

// OptimizerOps are fused multi-tensor optimizer updates over float32 vectors; the i-th entries
// of each slice belong together. They update w (and the state vectors) in place.
type OptimizerOps interface {
	AdamStep(w, g, m, v []Vec, s []AdamScalars)
	// SGDStep's buf entries have a nil Buf when the parameter has no momentum buffer.
	SGDStep(w, g, buf []Vec, s []SGDScalars)
}

// AdadeltaScalars are one parameter's constants for an Adadelta step (torch.optim.Adadelta), in
// float32 and PyTorch's order of operations:
//
//	g ← g + WeightDecay·w                        (only when WeightDecay ≠ 0)
//	s ← Rho·s + OneMinusRho·g·g                   (square_avg)
//	d ← √(a + Eps) / √(s + Eps) · g               (a: acc_delta)
//	a ← Rho·a + OneMinusRho·d·d
//	w ← w − LR·d
type AdadeltaScalars struct{ LR, Rho, OneMinusRho, Eps, WeightDecay float32 }

// RMSpropScalars are one parameter's constants for an RMSprop step (torch.optim.RMSprop):
//
//	g ← g + WeightDecay·w                        (only when WeightDecay ≠ 0)
//	s ← Alpha·s + OneMinusAlpha·g·g               (square_avg)
//	m ← Alpha·m + OneMinusAlpha·g,  r ← √(s − m·m) + Eps   (Centered: m is grad_avg)
//	r ← √s + Eps                                  (otherwise)
//	b ← Momentum·b + g/r,  w ← w − LR·b           (Momentum > 0: b is momentum_buffer)
//	w ← w − LR·(g/r)                              (otherwise)
type RMSpropScalars struct {
	LR, Alpha, OneMinusAlpha, Eps, WeightDecay, Momentum float32
	Centered                                             bool
}

// AdagradScalars are one parameter's constants for an Adagrad step (torch.optim.Adagrad), CLR
// being the step's decayed rate lr/(1 + (step−1)·lr_decay):
//
//	g ← g + WeightDecay·w                        (only when WeightDecay ≠ 0)
//	s ← s + g·g                                   (sum)
//	w ← w − CLR·(g / (√s + Eps))
type AdagradScalars struct{ CLR, Eps, WeightDecay float32 }

// AdaptiveOptimizerOps are the fused multi-tensor updates of the optimizers with per-element
// rates, over float32 vectors; the i-th entries of each slice belong together, and w and the
// state vectors are updated in place.
type AdaptiveOptimizerOps interface {
	AdadeltaStep(w, g, sq, acc []Vec, s []AdadeltaScalars)
	// RMSpropStep's mom entries have a nil Buf without momentum, and avg's without centering.
	RMSpropStep(w, g, sq, mom, avg []Vec, s []RMSpropScalars)
	AdagradStep(w, g, sum []Vec, s []AdagradScalars)
}

// ForeachOps are the multi-tensor reductions and updates of gradient clipping and loss scaling,
// over float32 vectors.
type ForeachOps interface {
	// SumSquares writes Σ x² over every element of xs, accumulated in float64, into the one
	// element of the F64 buffer dst.
	SumSquares(dst *Buffer, xs []Vec)
	// ScaleCheck multiplies every element of xs by s (rounded to float32) in place, and sets the
	// one element of the F32 buffer found to 1 if any element was inf or NaN (it never resets it).
	ScaleCheck(xs []Vec, s float64, found *Buffer)
}

// Backend is the full set of kernels package tensors calls: Core plus every fused op.
type Backend interface {
	Core
	SoftmaxOps
	LayerNormOps
	CrossEntropyOps
	IndexOps
	ConvOps
	Conv2dOps
	PoolOps
	AvgPoolOps
	OptimizerOps
	AdaptiveOptimizerOps
	ForeachOps
	AttentionOps
	SamplingOps
}

// ElementwiseStep is one op of an Elementwise program: Unary of operand A with parameters P and
// Q, or, when Binary is set, BinaryOp of operands A and B (both of one length: no broadcasting).
// An operand a ≥ 0 names the result of step a (an earlier one); a < 0 names the program's input
// -1-a.
type ElementwiseStep struct {
	Binary   bool
	BinaryOp BinaryOp
	Unary    UnaryOp
	P, Q     float64
	A, B     int
}

// ElementwiseInput is an input of an Elementwise program: the n contiguous float32 elements of
// Buf from Offset.
type ElementwiseInput struct {
	Buf    *Buffer
	Offset int
}

// Elementwise is a chain of float32 elementwise ops run as one kernel: its steps in order, the
// last one's result the program's.
type Elementwise struct {
	Inputs []ElementwiseInput
	Steps  []ElementwiseStep
}

// ElementwiseOps runs fused elementwise programs: a step's intermediate results stay in the
// cache (a tile at a time) instead of making a round trip through memory. Each element gets the
// same bits as the steps run one at a time by Unary and Binary would give it, and a sum the same
// bits as Reduce's float32 sum of those elements.
type ElementwiseOps interface {
	// Elementwise writes the n elements of p's result into dst.
	Elementwise(dst *Buffer, p *Elementwise, n int)
	// ElementwiseSum returns the float64 sum of the n elements of p's result, added in the order
	// Reduce adds a float32 row of n elements (which rounds it to float32).
	ElementwiseSum(p *Elementwise, n int) float64
}
