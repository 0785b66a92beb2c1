//go:build arm64 && !purego

package cpu

//go:noescape
func geluTanhNEON(dst, x *float32, n int)

//go:noescape
func geluTanhGradNEON(dx, gy, x *float32, n int)

//go:noescape
func geluErfNEON(dst, x *float32, n int)

//go:noescape
func geluErfGradNEON(dx, gy, x *float32, n int)

// geluF32 writes GELU (tanh approximation when tanh) of x into d for the leading multiple of 4
// elements with NEON (kernels_arm64.s) and reports how many it did.
// It mirrors gelu_amd64.go's only in outline: amd64 picks among AVX2 and AVX-512 kernels with an
// eight-lane AVX2 tail, so a shared body would keep just the lane mask and the bounds checks.
func geluF32(d, x []float32, tanh bool) int {
	n := len(x) &^ 3
	if n == 0 {
		return 0
	}
	_ = d[n-1]
	if tanh {
		geluTanhNEON(&d[0], &x[0], n)
	} else {
		geluErfNEON(&d[0], &x[0], n)
	}
	return n
}

// geluGradF32 is geluF32 for the gradient dx = gy·GELU'(x).
func geluGradF32(dx, gy, x []float32, tanh bool) int {
	n := len(gy) &^ 3
	if n == 0 {
		return 0
	}
	_, _ = dx[n-1], x[n-1]
	if tanh {
		geluTanhGradNEON(&dx[0], &gy[0], &x[0], n)
	} else {
		geluErfGradNEON(&dx[0], &gy[0], &x[0], n)
	}
	return n
}
