package cpu

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

func TestCoalesceMergesContiguousAndBroadcastDims(t *testing.T) {
	// [4,3,5] contiguous plus a bias broadcast over the first two dims.
	shp, sts := backend.Coalesce([]int{4, 3, 5}, []int{15, 5, 1}, []int{0, 0, 1})
	if len(shp) != 2 || shp[0] != 12 || shp[1] != 5 || sts[0][0] != 5 || sts[1][0] != 0 {
		t.Fatalf("coalesce = %v %v, want [12 5] with strides [5 1] and [0 1]", shp, sts)
	}
}

// arithmeticOps are Binary's four arithmetic ops as float32 arithmetic: what every kernel path
// must compute exactly.
var arithmeticOps = map[backend.BinaryOp]func(x, y float32) float32{
	backend.Add: func(x, y float32) float32 { return x + y },
	backend.Sub: func(x, y float32) float32 { return x - y },
	backend.Mul: func(x, y float32) float32 { return x * y },
	backend.Div: func(x, y float32) float32 { return x / y },
}

// TestBinaryVectorPathsMatchScalar covers the AVX2 float32 loops and their scalar tails: every
// length from 1 to 40, same-shape and scalar-broadcast operands, all four arithmetic ops.
func TestBinaryVectorPathsMatchScalar(t *testing.T) {
	c := New()
	// Lengths past 64 and 128 reach the 64-lane add and its 8-lane and scalar tails.
	for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 40, 63, 64, 65, 72, 127, 128, 129, 200} {
		a, b := newBuffer(backend.F32, n, n), newBuffer(backend.F32, n, n)
		for i := range n {
			a.F32[i] = float32(i)*0.37 - 3
			b.F32[i] = float32(i%7) + 0.5
		}
		for op, f := range arithmeticOps {
			for _, bcast := range []bool{false, true} {
				d := newBuffer(backend.F32, n, n)
				bs := backend.Strided{Buf: b, Strides: []int{1}}
				if bcast {
					bs = backend.Strided{Buf: b, Offset: 3 % n, Strides: []int{0}}
				}
				c.Binary(op, d, backend.Strided{Buf: a, Strides: []int{1}}, bs, []int{n})
				for i := range n {
					y := b.F32[i]
					if bcast {
						y = b.F32[3%n]
					}
					if want := f(a.F32[i], y); d.F32[i] != want {
						t.Fatalf("n=%d op=%d bcast=%v: d[%d] = %v, want %v", n, op, bcast, i, d.F32[i], want)
					}
				}
			}
		}
	}
}
