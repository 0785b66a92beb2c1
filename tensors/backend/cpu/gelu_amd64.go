//go:build amd64 && !purego

package cpu

//go:noescape
func geluTanhAVX2(dst, x *float32, n int)

//go:noescape
func geluTanhGradAVX2(dx, gy, x *float32, n int)

//go:noescape
func geluErfAVX2(dst, x *float32, n int)

//go:noescape
func geluErfGradAVX2(dx, gy, x *float32, n int)

//go:noescape
func geluErfAVX512(dst, x *float32, n int)

//go:noescape
func geluErfGradAVX512(dx, gy, x *float32, n int)

// geluF32 writes GELU (tanh approximation when tanh) of x into d for the leading multiple of 8
// elements with AVX2 (the exact GELU sixteen lanes a step with AVX-512) and reports how many it
// did.
func geluF32(d, x []float32, tanh bool) int {
	n := len(x) &^ 7
	if !haveAVX2FMA || n == 0 {
		return 0
	}
	_ = d[n-1]
	switch {
	case tanh:
		geluTanhAVX2(&d[0], &x[0], n)
	case haveAVX512:
		// Sixteen lanes a step, then the AVX2 kernel for a last eight.
		if n16 := n &^ 15; n16 > 0 {
			geluErfAVX512(&d[0], &x[0], n16)
		}
		if n%16 != 0 {
			geluErfAVX2(&d[n-8], &x[n-8], 8)
		}
	default:
		geluErfAVX2(&d[0], &x[0], n)
	}
	return n
}

// geluGradF32 is geluF32 for the gradient dx = gy·GELU'(x).
func geluGradF32(dx, gy, x []float32, tanh bool) int {
	n := len(gy) &^ 7
	if !haveAVX2FMA || n == 0 {
		return 0
	}
	_, _ = dx[n-1], x[n-1]
	switch {
	case tanh:
		geluTanhGradAVX2(&dx[0], &gy[0], &x[0], n)
	case haveAVX512:
		if n16 := n &^ 15; n16 > 0 {
			geluErfGradAVX512(&dx[0], &gy[0], &x[0], n16)
		}
		if n%16 != 0 {
			geluErfGradAVX2(&dx[n-8], &gy[n-8], &x[n-8], 8)
		}
	default:
		geluErfGradAVX2(&dx[0], &gy[0], &x[0], n)
	}
	return n
}
