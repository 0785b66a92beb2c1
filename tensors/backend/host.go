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

// Coalesce merges adjacent dimensions that are contiguous in every operand and drops size-1
// dimensions, so broadcast loops run over as few, as long rows as possible.
func Coalesce(shape []int, strides ...[]int) ([]int, [][]int) {
	var shp []int
	sts := make([][]int, len(strides))
	for d, n := range shape {
		if n == 1 {
			continue
		}
		shp = append(shp, n)
		for i, st := range strides {
			sts[i] = append(sts[i], st[d])
		}
	}
	if len(shp) == 0 {
		for i := range sts {
			sts[i] = []int{0}
		}
		return []int{1}, sts
	}
	outShp := shp[:1]
	out := make([][]int, len(sts))
	for i := range sts {
		out[i] = sts[i][:1]
	}
	for d := 1; d < len(shp); d++ {
		last := len(outShp) - 1
		merge := true
		for i := range sts {
			if out[i][last] != sts[i][d]*shp[d] {
				merge = false
				break
			}
		}
		if merge {
			outShp[last] *= shp[d]
			for i := range sts {
				out[i][last] = sts[i][d]
			}
			continue
		}
		outShp = append(outShp, shp[d])
		for i := range sts {
			out[i] = append(out[i], sts[i][d])
		}
	}
	return outShp, out
}

// SizeClass returns the size a pooled allocation of bytes is served with, so buffers of nearby
// sizes share free lists: multiples of 512 bytes up to 1 MiB, then steps of a quarter of the
// power of two below (at most 25% unused).
func SizeClass(bytes int) int {
	if bytes <= 0 {
		return 512
	}
	if bytes <= 1<<20 {
		return (bytes + 511) &^ 511
	}
	p := 1 << 20
	for p*2 <= bytes {
		p *= 2
	}
	step := p / 4
	return (bytes + step - 1) / step * step
}
