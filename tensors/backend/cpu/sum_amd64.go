//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

//go:noescape
func sumF32AVX(x *float32, n int) float64

//go:noescape
func sumF32AVX512(x *float32, n int) float64

var haveAVX512 = cpu.X86.HasAVX512F

// sumF32 adds the leading multiple of 16 (32 with AVX-512) of x in float64 and reports how
// many elements it covered and their sum (0, 0 without AVX2).
func sumF32(x []float32) (done int, sum float64) {
	if n := len(x) &^ 31; haveAVX512 && n > 0 {
		return n, sumF32AVX512(&x[0], n)
	}
	n := len(x) &^ 15
	if !haveAVX2FMA || n == 0 {
		return 0, 0
	}
	return n, sumF32AVX(&x[0], n)
}
