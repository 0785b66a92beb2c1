package reduce

import (
	"fmt"
	"unsafe"
)

// Op is a reduction operation.
type Op int

// The reductions. Avg is applied as Sum followed by Scale on the reducing rank.
const (
	Sum Op = iota
	Max
	Min
)

// DType is the element type of a byte buffer.
type DType int

// Element types the CPU transports reduce.
const (
	Float32 DType = iota
	Float64
	Int64
)

// Size is the width of one element in bytes.
func (d DType) Size() int {
	switch d {
	case Float32:
		return 4
	case Float64, Int64:
		return 8
	}
	panic(fmt.Sprintf("reduce: unknown dtype %d", int(d)))
}

// Bytes reduces src into dst in place (dst = dst op src), both holding
// elements of type dt. The lengths must match and be multiples of the size.
func Bytes(dt DType, op Op, dst, src []byte) {
	if len(dst) != len(src) {
		panic(fmt.Sprintf("reduce: length mismatch %d and %d", len(dst), len(src)))
	}
	if len(dst) == 0 {
		return
	}
	switch dt {
	case Float32:
		if op == Sum && sumF32(F32(dst), nil, F32(src)) {
			return
		}
		apply(op, F32(dst), F32(src))
	case Float64:
		apply(op, F64(dst), F64(src))
	case Int64:
		apply(op, I64(dst), I64(src))
	default:
		panic(fmt.Sprintf("reduce: unknown dtype %d", int(dt)))
	}
}

// BytesTo is Bytes followed by copy(dst2, dst), fused into one pass where a
// vector kernel exists (float32 sum), saving a read of the result.
func BytesTo(dt DType, op Op, dst, dst2, src []byte) {
	if len(dst2) != len(dst) {
		panic(fmt.Sprintf("reduce: length mismatch %d and %d", len(dst), len(dst2)))
	}
	if dt == Float32 && op == Sum && len(src) == len(dst) && len(dst) > 0 && sumF32(F32(dst), F32(dst2), F32(src)) {
		return
	}
	Bytes(dt, op, dst, src)
	copy(dst2, dst)
}

// BytesToScaled is BytesTo followed by Scale(dt, dst, f) and Scale(dt, dst2,
// f), fused into one pass where a vector kernel exists (float32 sum): the
// last reduction of a mean. The result has the same bits as the three calls.
func BytesToScaled(dt DType, op Op, dst, dst2, src []byte, f float64) {
	if f == 1 {
		BytesTo(dt, op, dst, dst2, src)
		return
	}
	if len(dst2) != len(dst) {
		panic(fmt.Sprintf("reduce: length mismatch %d and %d", len(dst), len(dst2)))
	}
	if dt == Float32 && op == Sum && len(src) == len(dst) && len(dst) > 0 && sumScaleF32(F32(dst), F32(dst2), F32(src), float32(f)) {
		return
	}
	BytesTo(dt, op, dst, dst2, src)
	Scale(dt, dst, f)
	Scale(dt, dst2, f)
}

// Scale multiplies every float element of b by f (used for Avg). Int64 is
// divided by the integer 1/f would not express, so callers reject Avg on it.
func Scale(dt DType, b []byte, f float64) {
	switch dt {
	case Float32:
		v := F32(b)
		g := float32(f)
		for i := range v {
			v[i] *= g
		}
	case Float64:
		v := F64(b)
		for i := range v {
			v[i] *= f
		}
	default:
		panic(fmt.Sprintf("reduce: cannot scale dtype %d", int(dt)))
	}
}

type number interface{ float32 | float64 | int64 }

func apply[T number](op Op, dst, src []T) {
	switch op {
	case Sum:
		add(dst, src)
	case Max:
		src = src[:len(dst)]
		for i, v := range src {
			if v > dst[i] || v != v { // NaN propagates, as in torch
				dst[i] = v
			}
		}
	case Min:
		src = src[:len(dst)]
		for i, v := range src {
			if v < dst[i] || v != v {
				dst[i] = v
			}
		}
	default:
		panic(fmt.Sprintf("reduce: unknown op %d", int(op)))
	}
}

// add is unrolled by eight: the compiler does not vectorise, and the
// independent adds let the CPU overlap them.
func add[T number](dst, src []T) {
	n := len(dst)
	src = src[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		d := dst[i : i+8 : i+8]
		s := src[i : i+8 : i+8]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
		d[4] += s[4]
		d[5] += s[5]
		d[6] += s[6]
		d[7] += s[7]
	}
	for ; i < n; i++ {
		dst[i] += src[i]
	}
}

// F32 views b as float32s without copying.
func F32(b []byte) []float32 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
}

// F64 views b as float64s without copying.
func F64(b []byte) []float64 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// I64 views b as int64s without copying.
func I64(b []byte) []int64 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// FromF32 views v as bytes without copying.
func FromF32(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*4)
}

// FromF64 views v as bytes without copying.
func FromF64(v []float64) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*8)
}

// FromI64 views v as bytes without copying.
func FromI64(v []int64) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), len(v)*8)
}
