package cpu

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// BenchmarkIm2colSamePadding unfolds one 16×28×28 image for a 3×3 kernel with padding 1, the
// per-image step of tensors' BenchmarkConv2dForwardBackward.
func BenchmarkIm2colSamePadding(b *testing.B) {
	x := make([]float32, 16*28*28)
	col := make([]float32, 16*9*28*28)
	for range b.N {
		im2col(col, 28*28, x, 16, 28, 28, 3, 3, 1, 1, 28, 28, false)
	}
}

// BenchmarkCopyBroadcastScalar1M expands one float32 over 1M elements, as the backward pass of
// a sum does.
func BenchmarkCopyBroadcastScalar1M(b *testing.B) {
	var c CPU
	src := newBuffer(backend.F32, 1, 1)
	dst := newBuffer(backend.F32, 1<<20, 1<<20)
	shape := []int{1024, 1024}
	b.SetBytes(4 << 20)
	for range b.N {
		c.Copy(backend.Strided{Buf: dst, Strides: []int{1024, 1}}, backend.Strided{Buf: src, Strides: []int{0, 0}}, shape)
	}
}
