package cpu

import (
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Row helpers for the softmax-shaped kernels: float32 rows go through the AVX2 kernels
// (maxF32, vecF32), float64 rows through plain loops. Results equal the scalar loops bit for bit.

// asF32 views a float32-sized T slice as []float32.
func asF32[T float](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(&s[0])), len(s))
}

// maxT returns the largest element of a non-empty row.
func maxT[T float](s []T) T {
	if unsafe.Sizeof(s[0]) == 4 {
		return T(maxF32(asF32(s)))
	}
	m := s[0]
	for _, v := range s[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// scaleT sets s[i] *= v.
func scaleT[T float](s []T, v T) {
	done := 0
	if len(s) > 0 && unsafe.Sizeof(s[0]) == 4 {
		f := asF32(s)
		done = vecF32(backend.Mul, f, f, nil, float32(v))
	}
	for i := done; i < len(s); i++ {
		s[i] *= v
	}
}

// shiftScaleT sets d[i] = g * (p[i] - u) for len(d) elements.
func shiftScaleT[T float](d, p []T, u, g T) {
	p = p[:len(d)]
	done := 0
	if len(d) > 0 && unsafe.Sizeof(d[0]) == 4 {
		df := asF32(d)
		done = vecF32(backend.Sub, df, asF32(p), nil, float32(u))
		vecF32(backend.Mul, df[:done], df[:done], nil, float32(g))
	}
	for i := done; i < len(d); i++ {
		d[i] = g * (p[i] - u)
	}
}
