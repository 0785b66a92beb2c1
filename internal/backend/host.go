package backend

import "fmt"

// NewHost returns a zeroed host buffer of n elements of dt (slices set, Ptr 0).
func NewHost(dt DType, n int) *Buffer {
	b := &Buffer{DType: dt, Len: n}
	switch dt {
	case F32:
		b.F32 = make([]float32, n)
	case F64:
		b.F64 = make([]float64, n)
	case I64:
		b.I64 = make([]int64, n)
	case BF16, F16:
		b.U16 = make([]uint16, n)
	default:
		panic(fmt.Sprintf("backend: unknown dtype %d", dt))
	}
	return b
}

// ContiguousStrides returns the row-major strides of shape.
func ContiguousStrides(shape ...int) []int {
	st := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= shape[i]
	}
	return st
}
