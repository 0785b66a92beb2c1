//go:build (!amd64 && !arm64) || purego

package cpu

// expShiftSum writes dst[i] = e^(src[i]-shift) and returns their sum.
func expShiftSum(dst, src []float32, shift float32) float64 {
	var sum float64
	for i, v := range src {
		e := expf(v - shift)
		dst[i] = e
		sum += float64(e)
	}
	return sum
}

// maxF32 returns the largest element of a non-empty s.
func maxF32(s []float32) float32 { return maxScalarF32(s) }
