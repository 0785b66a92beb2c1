// Package backend is the driver interface between package tensors and the devices that run its
// kernels. Package tensors owns shapes, broadcasting rules and autograd; a Backend only moves and
// computes numbers in buffers it allocated. The CPU backend lives in internal/cpu; an accelerator
// backend implements the same interface over device memory (Buffer.Ptr) without API changes.
//
// Conventions: every kernel writes a contiguous destination; "outer, n, inner" describe a
// contiguous tensor viewed as [outer, n, inner] with the operated axis in the middle.
package backend

// DType numbers the element types; the values match tensors.DType.
type DType uint8

// Element types.
const (
	F32 DType = iota
	F64
	BF16
	F16
	I64
)

// Buffer is one allocation on a device. Host backends fill exactly one of the slices for the
// buffer's DType (U16 holds bfloat16 and float16 bits); accelerator backends set Ptr.
type Buffer struct {
	DType DType
	Len   int
	F32   []float32
	F64   []float64
	I64   []int64
	U16   []uint16
	Ptr   uintptr
}

// UnaryOp names an elementwise function of one tensor and up to two scalar parameters.
type UnaryOp uint8

// Unary operations. P and Q are the scalar parameters passed to Unary.
const (
	Neg UnaryOp = iota
	Exp
	Log
	Sqrt
	Abs
	Tanh
	Sigmoid
	ReLU
	GELU
	SiLU
	Pow       // x^P
	Clamp     // min(max(x, P), Q)
	AddScalar // x + P
	MulScalar // x * P
	Affine    // x*P + Q
)

// BinaryOp names an elementwise function of two broadcast tensors.
type BinaryOp uint8

// Binary operations; the comparisons write 1 or 0.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div
	Eq
	Ne
	Gt
	Lt
	Ge
	Le
	Max2 // elementwise maximum (used by backward passes)
)

// ReduceOp names a reduction over the middle axis of [outer, n, inner].
type ReduceOp uint8

// Reductions.
const (
	Sum ReduceOp = iota
	Max
	Min
	ArgMax
	ArgMin
)

// Strided describes a strided view of a buffer: element (i0, i1, ...) is at
// Offset + Σ ik*Strides[k].
type Strided struct {
	Buf     *Buffer
	Offset  int
	Strides []int
}

// Backend runs kernels on one device.
type Backend interface {
	// Name is the device type, "cpu" or "cuda".
	Name() string
	// Alloc returns a zeroed buffer of n elements.
	Alloc(dt DType, n int) *Buffer
	// AllocUninit returns a buffer whose contents are unspecified (every element will be written).
	AllocUninit(dt DType, n int) *Buffer
	// Release hands a buffer no tensor references any more back for reuse.
	Release(b *Buffer)
	// Fill sets every element of b to v.
	Fill(b *Buffer, v float64)
	// Copy copies a strided view of shape into another strided view, converting element types.
	Copy(dst, src Strided, shape []int)
	// Unary computes dst = op(x; p, q) elementwise over contiguous buffers.
	Unary(op UnaryOp, dst, x *Buffer, p, q float64)
	// UnaryGrad computes dx = gy * op'(x) (y = op(x) is given for ops whose derivative uses it).
	UnaryGrad(op UnaryOp, dx, gy, x, y *Buffer, p, q float64)
	// Binary computes contiguous dst of shape from two strided (broadcast: stride 0) operands.
	Binary(op BinaryOp, dst *Buffer, a, b Strided, shape []int)
	// Where computes dst = cond != 0 ? a : b over broadcast strided operands.
	Where(dst *Buffer, cond, a, b Strided, shape []int)
	// Reduce reduces the middle axis of contiguous src viewed as [outer, n, inner] into dst
	// [outer, inner]; ArgMax/ArgMin write int64 indices.
	Reduce(op ReduceOp, dst, src *Buffer, outer, n, inner int)
	// Softmax computes softmax (or log-softmax) over the middle axis.
	Softmax(dst, src *Buffer, outer, n, inner int, log bool)
	// SoftmaxGrad computes the input gradient of Softmax given its output y and upstream gy.
	SoftmaxGrad(dx, gy, y *Buffer, outer, n, inner int, log bool)
	// Gemm computes C = alpha*op(A)*op(B) + beta*C for batch matrices; the k-th matrices start at
	// offsets aOff+k*strideA and so on. lowp (BF16 or F16) rounds A and B to that type first and
	// accumulates in float32; lowp = F32/F64 means the buffers' own type.
	Gemm(lowp DType, transA, transB bool, batch, m, n, k int, alpha float64,
		a *Buffer, aOff, lda, strideA int, b *Buffer, bOff, ldb, strideB int,
		beta float64, c *Buffer, cOff, ldc, strideC int)
	// IndexSelect gathers rows: dst[o, j, i] = src[o, idx[j], i] for src [outer, n, inner].
	IndexSelect(dst, src, idx *Buffer, outer, n, inner int)
	// IndexAdd scatters rows back: dst[o, idx[j], i] += src[o, j, i].
	IndexAdd(dst, src, idx *Buffer, outer, n, inner int)
	// Gather: dst[o, j, i] = src[o, idx[o, j, i], i], src [outer, n, inner], idx [outer, m, inner].
	Gather(dst, src, idx *Buffer, outer, n, m, inner int)
	// ScatterAdd is the adjoint of Gather: dst[o, idx[o, j, i], i] += src[o, j, i].
	ScatterAdd(dst, src, idx *Buffer, outer, n, m, inner int)
	// LayerNorm normalises the rows of x [rows, n]; it writes y and the per-row mean and
	// reciprocal standard deviation (float64 rows for float64 tensors, float32 otherwise).
	LayerNorm(y, mean, rstd, x, w, b *Buffer, rows, n int, eps float64)
	// LayerNormGrad computes dx, and accumulates dw, db when they are non-nil.
	LayerNormGrad(dx, dw, db, gy, x, mean, rstd, w *Buffer, rows, n int)
	// CrossEntropy computes per-row losses of logits [rows, classes] against int64 targets and
	// the row softmax (kept for the backward pass). Rows whose target is ignore get loss 0.
	CrossEntropy(loss, prob, logits, target *Buffer, rows, classes int, ignore int64, smoothing float64)
	// CrossEntropyGrad writes dlogits given per-row upstream gradients gl.
	CrossEntropyGrad(dlogits, gl, prob, target *Buffer, rows, classes int, ignore int64, smoothing float64)
	// Im2col unfolds the CHW image at xOff into a [C*KH*KW, OH*OW] block of col starting at
	// colOff with row stride ldCol (several images side by side share one gemm).
	Im2col(col *Buffer, colOff, ldCol int, x *Buffer, xOff, c, h, w, kh, kw, stride, pad, oh, ow int)
	// Col2im accumulates such a block back into the image gradient (adjoint of Im2col).
	Col2im(dx *Buffer, xOff int, col *Buffer, colOff, ldCol, c, h, w, kh, kw, stride, pad, oh, ow int)
	// MaxPool2d pools NCHW planes, recording the argmax position of each output.
	MaxPool2d(y, arg, x *Buffer, planes, h, w, k, stride, oh, ow int)
	// MaxPool2dGrad routes gy to the recorded positions.
	MaxPool2dGrad(dx, gy, arg *Buffer, planes, h, w, oh, ow int)
}

// Transfer is implemented by device backends that hold memory the host cannot address.
// Upload copies a host buffer (any host backend's) into a new device buffer; Download copies a
// device buffer into a new host buffer.
type Transfer interface {
	Upload(host *Buffer) *Buffer
	Download(dev *Buffer) *Buffer
}
