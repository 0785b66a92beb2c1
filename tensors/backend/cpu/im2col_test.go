package cpu

import "testing"

// BenchmarkIm2colSamePadding unfolds one 16×28×28 image for a 3×3 kernel with padding 1, the
// per-image step of tensors' BenchmarkConv2dForwardBackward.
func BenchmarkIm2colSamePadding(b *testing.B) {
	x := make([]float32, 16*28*28)
	col := make([]float32, 16*9*28*28)
	for range b.N {
		im2col(col, 28*28, x, 16, 28, 28, 3, 3, 1, 1, 28, 28, false)
	}
}
