//go:build (amd64 || arm64) && !purego

package cpu

// The softmax row's exp and maximum over the kernels of exp_amd64.go and exp_arm64.go
// (expShiftSumVec and maxF32Vec, eight lanes a step in AVX2's lanes, where haveExpVec says).

// expShiftSum writes dst[i] = e^(src[i]-shift) (all exponents ≤ 0) and returns their sum, eight
// lanes at a time with the vector kernel.
func expShiftSum(dst, src []float32, shift float32) float64 {
	n := len(src) &^ 7
	var sum float64
	if haveExpVec && n > 0 {
		_ = dst[n-1]
		sum = float64(expShiftSumVec(&dst[0], &src[0], n, shift))
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

// maxF32 returns the largest element of a non-empty s, eight lanes at a time with the vector
// kernel.
func maxF32(s []float32) float32 {
	n := len(s) &^ 7
	if !haveExpVec || n == 0 {
		return maxScalarF32(s)
	}
	m := maxF32Vec(&s[0], n)
	for _, v := range s[n:] {
		if v > m {
			m = v
		}
	}
	return m
}
