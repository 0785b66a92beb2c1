package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveMaxPool is PyTorch's max_pool2d loop (aten's max_pool2d_with_indices kernel), plane by
// plane: the reference of maxPool's loops.
func naiveMaxPool(x []float32, planes, h, w, k, stride, oh, ow int) ([]float32, []int64) {
	y, arg := make([]float32, planes*oh*ow), make([]int64, planes*oh*ow)
	for p := range planes {
		for oy := range oh {
			for ox := range ow {
				bi := p*h*w + oy*stride*w + ox*stride
				best := x[bi]
				for ki := range k {
					for kj := range k {
						i := p*h*w + (oy*stride+ki)*w + ox*stride + kj
						if v := x[i]; v > best || math.IsNaN(float64(v)) {
							best, bi = v, i
						}
					}
				}
				y[(p*oh+oy)*ow+ox], arg[(p*oh+oy)*ow+ox] = best, int64(bi-p*h*w)
			}
		}
	}
	return y, arg
}

// TestMaxPoolMatchesPyTorchsLoop: every window and stride (the 2×2 loop of its own and its AVX-512
// kernel included: rows of fewer than, exactly and more than its sixteen outputs), odd sizes, ties (the first maximum wins) and NaNs (a NaN wins, the last NaN of a window), plane
// counts above and below the parallel split, against the reference loop bit for bit.
func TestMaxPoolMatchesPyTorchsLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ planes, h, w, k, stride int }{
		{1, 2, 2, 2, 2}, {3, 5, 7, 2, 2}, {4, 24, 24, 2, 2}, {300, 26, 26, 2, 2}, {2, 9, 8, 3, 3},
		{2, 9, 9, 3, 2}, {5, 6, 7, 2, 1}, {3, 11, 10, 4, 3}, {2, 4, 4, 1, 1},
		{2, 4, 32, 2, 2}, {2, 33, 34, 2, 2}, {3, 40, 70, 2, 2}, {1, 3, 65, 2, 2},
	} {
		oh, ow := (c.h-c.k)/c.stride+1, (c.w-c.k)/c.stride+1
		x := make([]float32, c.planes*c.h*c.w)
		for i := range x {
			switch r.IntN(10) {
			case 0:
				x[i] = float32(math.NaN())
			case 1, 2, 3:
				x[i] = float32(r.IntN(3)) // ties
			default:
				x[i] = float32(r.NormFloat64())
			}
		}
		wantY, wantArg := naiveMaxPool(x, c.planes, c.h, c.w, c.k, c.stride, oh, ow)
		y, arg := make([]float32, len(wantY)), make([]int64, len(wantArg))
		maxPool(y, arg, x, c.planes, c.h, c.w, c.k, c.stride, oh, ow)
		for i := range y {
			if math.Float32bits(y[i]) != math.Float32bits(wantY[i]) || arg[i] != wantArg[i] {
				t.Fatalf("%+v: output %d is %v at %d, want %v at %d", c, i, y[i], arg[i], wantY[i], wantArg[i])
			}
		}
	}
}

// BenchmarkMaxPool2x2: the MNIST CNN's pooling (batch 64, 64 planes of 24 × 24).
func BenchmarkMaxPool2x2(b *testing.B) {
	const planes, h, w = 64 * 64, 24, 24
	x := make([]float32, planes*h*w)
	for i := range x {
		x[i] = float32(i % 97)
	}
	y, arg := make([]float32, planes*12*12), make([]int64, planes*12*12)
	b.SetBytes(int64(len(x) * 4))
	for b.Loop() {
		maxPool(y, arg, x, planes, h, w, 2, 2, 12, 12)
	}
}

// TestMaxPoolGradAddsToTheWindowsMaxima: the gradient goes to each window's index, added where
// windows overlap (stride 1), planes split over the cores as the forward pass splits them.
func TestMaxPoolGradAddsToTheWindowsMaxima(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ planes, h, w, k, stride int }{{600, 26, 26, 2, 2}, {600, 12, 12, 3, 1}, {2, 5, 5, 2, 2}} {
		oh, ow := (c.h-c.k)/c.stride+1, (c.w-c.k)/c.stride+1
		x, gy := make([]float32, c.planes*c.h*c.w), make([]float32, c.planes*oh*ow)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		for i := range gy {
			gy[i] = float32(r.IntN(64)) / 8 // exact sums in any order
		}
		_, arg := naiveMaxPool(x, c.planes, c.h, c.w, c.k, c.stride, oh, ow)
		want := make([]float32, len(x))
		for o, a := range arg {
			want[o/(oh*ow)*c.h*c.w+int(a)] += gy[o]
		}
		dx := make([]float32, len(x))
		maxPoolGrad(dx, gy, arg, c.planes, c.h, c.w, oh, ow)
		for i := range want {
			if dx[i] != want[i] {
				t.Fatalf("%+v: input %d's gradient is %v, want %v", c, i, dx[i], want[i])
			}
		}
	}
}
