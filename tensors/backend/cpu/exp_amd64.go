//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

//go:noescape
func expShiftSumAVX2(dst, src *float32, n int, shift float32) float32

//go:noescape
func maxF32AVX2(src *float32, n int) float32

var haveAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// expShiftSum writes dst[i] = e^(src[i]-shift) (all exponents ≤ 0) and returns their sum,
// eight lanes at a time where AVX2 and FMA exist.
func expShiftSum(dst, src []float32, shift float32) float64 {
	n := len(src) &^ 7
	var sum float64
	if haveAVX2FMA && n > 0 {
		sum = float64(expShiftSumAVX2(&dst[0], &src[0], n, shift))
	} else {
		n = 0
	}
	for i := n; i < len(src); i++ {
		e := expf(src[i] - shift)
		dst[i] = e
		sum += float64(e)
	}
	return sum
}

// maxF32 returns the largest element of a non-empty s, eight lanes at a time where AVX2 exists.
func maxF32(s []float32) float32 {
	n := len(s) &^ 7
	if !haveAVX2FMA || n == 0 {
		return maxScalarF32(s)
	}
	m := maxF32AVX2(&s[0], n)
	for _, v := range s[n:] {
		if v > m {
			m = v
		}
	}
	return m
}
