//go:build arm64 && !purego

package cpu

//go:noescape
func sumF32NEON(x *float32, n int) float64

// sumF32 adds the leading multiple of 16 of x in float64 with NEON (kernels_arm64.s, in the
// order of amd64's AVX kernel) and reports how many elements it covered and their sum.
// It stays apart from sum_amd64.go's, which tries AVX-512's 32 lanes before AVX2's 16: what the
// two share is two lines.
func sumF32(x []float32) (done int, sum float64) {
	n := len(x) &^ 15
	if n == 0 {
		return 0, 0
	}
	return n, sumF32NEON(&x[0], n)
}
