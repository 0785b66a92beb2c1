//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

//go:noescape
func expShiftSumAVX2(dst, src *float32, n int, shift float32) float32

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
