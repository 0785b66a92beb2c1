package backend

import (
	"errors"
	"runtime"
)

// ErrOutOfMemory is what a device's allocation panics with (wrapped in an error naming the
// device and the sizes) when the device is full even after its cache was emptied and the
// garbage collector ran: a panic value that is an error, so errors.Is finds this.
var ErrOutOfMemory = errors.New("out of memory")

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

// Size returns the width of one element in bytes.
func (d DType) Size() int {
	switch d {
	case F32:
		return 4
	case BF16, F16:
		return 2
	}
	return 8
}

func (d DType) String() string {
	switch d {
	case F32:
		return "f32"
	case F64:
		return "f64"
	case BF16:
		return "bf16"
	case F16:
		return "f16"
	case I64:
		return "i64"
	}
	return "dtype?"
}

// Buffer is one allocation on a device. Host backends fill exactly one of the slices for the
// buffer's DType (U16 holds bfloat16 and float16 bits); other devices leave them nil and keep
// their handle in Ptr. Only the backend that allocated a buffer reads its contents.
type Buffer struct {
	DType DType
	Len   int
	F32   []float32
	F64   []float64
	I64   []int64
	U16   []uint16
	Ptr   uintptr
	// Cold is a host device's hint to its kernels: the memory has likely left the caches (fresh,
	// or reclaimed from a dropped tensor, where a released buffer was in use just before), so a
	// kernel writing all of it may store around them.
	Cold bool

	reclaim runtime.Cleanup // set by Reclaim
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
	GELUTanh  // GELU's tanh approximation: 0.5x(1 + tanh(√(2/π)(x + 0.044715x³)))
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

// Core is what every device implements. Element types: Unary and UnaryGrad take F32 and F64;
// Binary, Where and Reduce also I64 (Binary's Div is then integer division, truncated towards
// zero); Fill and Copy take every type, Copy converting between them (to BF16 and F16 by
// rounding to nearest even through float32, to I64 by truncating towards zero); Gemm multiplies
// F32 or F64 buffers, or rounds them to BF16/F16 first (lowp). Binary's results are IEEE
// arithmetic's, each correctly rounded to its type.
type Core interface {
	// Name is the device type, e.g. "cpu" or "cuda".
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
	// Unary computes dst = op(x; p, q) elementwise over contiguous buffers of x.Len elements.
	Unary(op UnaryOp, dst, x *Buffer, p, q float64)
	// UnaryGrad computes dx = gy * op'(x) (y = op(x) is given for ops whose derivative uses it).
	UnaryGrad(op UnaryOp, dx, gy, x, y *Buffer, p, q float64)
	// Binary computes contiguous dst of shape from two strided (broadcast: stride 0) operands.
	Binary(op BinaryOp, dst *Buffer, a, b Strided, shape []int)
	// Where computes dst = cond != 0 ? a : b over broadcast strided operands (cond any type).
	Where(dst *Buffer, cond, a, b Strided, shape []int)
	// Reduce reduces the middle axis of contiguous src viewed as [outer, n, inner] into dst
	// [outer, inner]; ArgMax/ArgMin write int64 indices of the first extreme (NaN counts as one).
	Reduce(op ReduceOp, dst, src *Buffer, outer, n, inner int)
	// Gemm computes C = alpha*op(A)*op(B) + beta*C for batch matrices; the k-th matrices start at
	// offsets aOff+k*strideA and so on (a stride 0 shares one matrix); beta 0 never reads C. lowp (BF16 or F16) rounds A and B to that type first and
	// accumulates in float32; lowp = F32/F64 means the buffers' own type.
	Gemm(lowp DType, transA, transB bool, batch, m, n, k int, alpha float64,
		a *Buffer, aOff, lda, strideA int, b *Buffer, bOff, ldb, strideB int,
		beta float64, c *Buffer, cOff, ldc, strideC int)
}

// Transfer is implemented by devices whose memory the host cannot address. Upload copies a host
// buffer (any host backend's) into a new device buffer; Download copies a device buffer into a
// new host buffer, waiting for the work queued on it.
type Transfer interface {
	Upload(host *Buffer) *Buffer
	Download(dev *Buffer) *Buffer
}
