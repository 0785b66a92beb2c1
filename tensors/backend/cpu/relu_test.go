package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestReLUKernelsMatchTheBitLoop: the vector ReLU and its gradient give the scalar loop's bits on
// every length around the 32-lane rounds, for random bit patterns (NaNs of both signs, infinities,
// signed zeros, subnormals among them).
func TestReLUKernelsMatchTheBitLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.NaN()), math.Float32frombits(0xffc00000), math.SmallestNonzeroFloat32, -1, 1}
	for _, n := range []int{0, 1, 31, 32, 33, 63, 64, 95, 96, 97, 1000, 4099} {
		x, gy := make([]float32, n), make([]float32, n)
		for i := range x {
			if r.IntN(4) == 0 {
				x[i] = special[r.IntN(len(special))]
			} else {
				x[i] = math.Float32frombits(r.Uint32())
			}
			gy[i] = math.Float32frombits(r.Uint32())
		}
		y, want := make([]float32, n), make([]float32, n)
		reluF32(y, x)
		for i, v := range x {
			b := math.Float32bits(v)
			want[i] = math.Float32frombits(b &^ uint32(int32(b)>>31))
		}
		sameBits(t, "ReLU", n, y, want)
		dx := make([]float32, n)
		reluGradF32(dx, gy, y)
		for i, g := range gy {
			m := uint32(int32(math.Float32bits(y[i])-1) >> 31)
			want[i] = math.Float32frombits(math.Float32bits(g) &^ m)
		}
		sameBits(t, "ReLU's gradient", n, dx, want)
	}
}

func sameBits(t *testing.T, what string, n int, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s of %d elements: element %d is %#x, want %#x", what, n, i, math.Float32bits(got[i]), math.Float32bits(want[i]))
		}
	}
}

// BenchmarkReLU: the MNIST CNN's second ReLU (batch 64, 64 planes of 24 × 24) through the cache.
func BenchmarkReLU(b *testing.B) {
	x := make([]float32, 64*64*24*24)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	y := make([]float32, len(x))
	b.SetBytes(int64(8 * len(x)))
	for b.Loop() {
		reluF32(y, x)
	}
}
