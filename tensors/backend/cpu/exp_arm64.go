//go:build arm64 && !purego

package cpu

//go:noescape
func expShiftSumNEON(dst, src *float32, n int, shift float32) float32

//go:noescape
func maxF32NEON(src *float32, n int) float32

// expShiftSum writes dst[i] = e^(src[i]-shift) (all exponents ≤ 0) and returns their sum, eight
// lanes at a time with NEON (kernels_arm64.s).
func expShiftSum(dst, src []float32, shift float32) float64 {
	n := len(src) &^ 7
	var sum float64
	if n > 0 {
		_ = dst[n-1]
		sum = float64(expShiftSumNEON(&dst[0], &src[0], n, shift))
	}
	for i := n; i < len(src); i++ {
		e := expf(src[i] - shift)
		dst[i] = e
		sum += float64(e)
	}
	return sum
}

// maxF32 returns the largest element of a non-empty s, eight lanes at a time with NEON.
func maxF32(s []float32) float32 {
	n := len(s) &^ 7
	if n == 0 {
		return maxScalarF32(s)
	}
	m := maxF32NEON(&s[0], n)
	for _, v := range s[n:] {
		if v > m {
			m = v
		}
	}
	return m
}
