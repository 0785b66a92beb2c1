//go:build amd64 && !purego

package cpu

//go:noescape
func sumF32AVX(x *float32, n int) float64

// sumF32 adds the leading multiple of 16 of x in float64 with AVX and reports how many elements
// it covered and their sum (0, 0 without AVX2).
func sumF32(x []float32) (done int, sum float64) {
	n := len(x) &^ 15
	if !haveAVX2FMA || n == 0 {
		return 0, 0
	}
	return n, sumF32AVX(&x[0], n)
}
