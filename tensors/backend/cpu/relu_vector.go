//go:build (amd64 || arm64) && !purego

package cpu

// ReLU's kernels on the bits, 32 lanes a round (n a positive multiple of 32): relu_amd64.s (AVX2)
// and kernels_arm64.s (NEON), where haveReLUVec says they run (relu_amd64.go, relu_arm64.go).
// Both give reluF32's and reluGradF32's bits, NaNs and signed zeros included.

// reluBitsF32 writes d = x &^ (x >> 31), the sign's arithmetic shift, for n elements.
//
//go:noescape
func reluBitsF32(d, x *float32, n int)

// reluGradBitsF32 writes dx = gy &^ ((y − 1) >> 31) on the bits for n elements.
//
//go:noescape
func reluGradBitsF32(dx, gy, y *float32, n int)

// reluVec writes the ReLU of x into d for the leading multiple of 32 elements with the vector
// kernel and reports how many it did.
func reluVec(d, x []float32) int {
	n := len(x) &^ 31
	if !haveReLUVec || n == 0 {
		return 0
	}
	_ = d[n-1]
	reluBitsF32(&d[0], &x[0], n)
	return n
}

// reluGradVec is reluVec for ReLU's gradient: dx = gy where y > 0, else 0.
func reluGradVec(dx, gy, y []float32) int {
	n := len(gy) &^ 31
	if !haveReLUVec || n == 0 {
		return 0
	}
	_, _ = dx[n-1], y[n-1]
	reluGradBitsF32(&dx[0], &gy[0], &y[0], n)
	return n
}
