//go:build amd64 && !purego

package cpu

//go:noescape
func reluAVX2(d, x *float32, n int)

//go:noescape
func reluGradAVX2(dx, gy, y *float32, n int)

// reluVec writes the ReLU of x into d for the leading multiple of 32 elements with AVX2 and
// reports how many it did.
func reluVec(d, x []float32) int {
	n := len(x) &^ 31
	if !haveAVX2FMA || n == 0 {
		return 0
	}
	_ = d[n-1]
	reluAVX2(&d[0], &x[0], n)
	return n
}

// reluGradVec is reluVec for ReLU's gradient: dx = gy where y > 0, else 0.
func reluGradVec(dx, gy, y []float32) int {
	n := len(gy) &^ 31
	if !haveAVX2FMA || n == 0 {
		return 0
	}
	_, _ = dx[n-1], y[n-1]
	reluGradAVX2(&dx[0], &gy[0], &y[0], n)
	return n
}
