package cpu

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// TestFillDoublingSetsEveryElement covers rows filled by the loop alone, rows just past the
// doubled head, and lengths that are no power of two.
func TestFillDoublingSetsEveryElement(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 128, 129, 130, 1000, 4097, 1 << 16} {
		row := make([]float32, n+1)
		row[n] = -1 // a sentinel past the row: must stay
		fillDoubling(row[:n], 2.5)
		for i, v := range row[:n] {
			if v != 2.5 {
				t.Fatalf("n=%d: row[%d] = %v, want 2.5", n, i, v)
			}
		}
		if row[n] != -1 {
			t.Fatalf("n=%d: wrote past the row", n)
		}
	}
}

// TestFillRowSetsEveryElement covers float32 rows below fillF32's 64, at it, past it by less
// than a 32-element step and by more, and a float64 row (filled by doubling), each ending
// before a sentinel.
func TestFillRowSetsEveryElement(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 65, 95, 96, 97, 1000, 1<<20 + 3} {
		row := make([]float32, n+1)
		row[n] = -1
		fillRow(row[:n], -0.75)
		for i, v := range row[:n] {
			if v != -0.75 {
				t.Fatalf("float32 n=%d: row[%d] = %v, want -0.75", n, i, v)
			}
		}
		if row[n] != -1 {
			t.Fatalf("float32 n=%d: wrote past the row", n)
		}
		row64 := make([]float64, n+1)
		row64[n] = -1
		fillRow(row64[:n], 3.25)
		for i, v := range row64[:n] {
			if v != 3.25 {
				t.Fatalf("float64 n=%d: row[%d] = %v, want 3.25", n, i, v)
			}
		}
		if row64[n] != -1 {
			t.Fatalf("float64 n=%d: wrote past the row", n)
		}
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
