package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randF32 returns n normal samples times scale (or uniform ones in [0, scale) when uniform).
func randF32(r *rand.Rand, n int, scale float64, uniform bool) []float32 {
	out := make([]float32, n)
	for i := range out {
		v := r.NormFloat64()
		if uniform {
			v = r.Float64()
		}
		out[i] = float32(v * scale)
	}
	return out
}

// TestAdamKernelMatchesScalarBitForBit checks the vector kernel against the scalar loop on lengths
// around the vector width, including values that exercise rounding (tiny v, large g).
func TestAdamKernelMatchesScalarBitForBit(t *testing.T) {
	if !useVecOptim {
		t.Skip("no vector kernel on this CPU or build")
	}
	r := rand.New(rand.NewPCG(5, 5))
	c := adamConsts{0.9, 0.1, 0.999, 0.001, float32(math.Sqrt(1 - math.Pow(0.999, 3))), 1e-8, -0.0037, 0.99995}
	for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 63, 1000} {
		w, g := randF32(r, n, 1, false), randF32(r, n, 100, false)
		m, v := randF32(r, n, 1, false), randF32(r, n, 1e-6, true)
		w2, m2, v2 := append([]float32(nil), w...), append([]float32(nil), m...), append([]float32(nil), v...)
		adamUpdate(w, g, m, v, &c)
		adamScalar(w2, g, m2, v2, &c)
		for j := range w {
			if math.Float32bits(w[j]) != math.Float32bits(w2[j]) || m[j] != m2[j] || v[j] != v2[j] {
				t.Fatalf("n=%d element %d: vector (w %v, m %v, v %v), scalar (w %v, m %v, v %v)", n, j, w[j], m[j], v[j], w2[j], m2[j], v2[j])
			}
		}
	}
}

// TestAdadeltaKernelMatchesScalarBitForBit: the vector Adadelta update gives the scalar loop's bits,
// with and without weight decay, on lengths around the vector width.
func TestAdadeltaKernelMatchesScalarBitForBit(t *testing.T) {
	if !useVecOptim {
		t.Skip("no vector kernel on this CPU or build")
	}
	r := rand.New(rand.NewPCG(6, 6))
	for _, wd := range []float32{0, 0.01} {
		c := adadeltaConsts{LR: 1, Rho: 0.9, OneMinusRho: 0.1, Eps: 1e-6, WeightDecay: wd}
		for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 63, 1000} {
			w, g := randF32(r, n, 1, false), randF32(r, n, 10, false)
			sq, acc := randF32(r, n, 1e-3, true), randF32(r, n, 1e-5, true)
			w2, sq2, acc2 := append([]float32(nil), w...), append([]float32(nil), sq...), append([]float32(nil), acc...)
			adadeltaUpdate(w, g, sq, acc, &c)
			adadeltaScalar(w2, g, sq2, acc2, &c)
			for j := range w {
				if math.Float32bits(w[j]) != math.Float32bits(w2[j]) || sq[j] != sq2[j] || acc[j] != acc2[j] {
					t.Fatalf("weight decay %v, n=%d element %d: vector (w %v, sq %v, acc %v), scalar (w %v, sq %v, acc %v)",
						wd, n, j, w[j], sq[j], acc[j], w2[j], sq2[j], acc2[j])
				}
			}
		}
	}
}

// BenchmarkAdadelta: one Adadelta update of the MNIST CNN's first linear layer (9216 × 128), one
// core's chunk.
func BenchmarkAdadelta(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 7))
	const n = 9216 * 128
	w, g := randF32(r, n, 1, false), randF32(r, n, 1e-3, false)
	sq, acc := randF32(r, n, 1e-6, true), randF32(r, n, 1e-6, true)
	c := adadeltaConsts{LR: 1, Rho: 0.9, OneMinusRho: 0.1, Eps: 1e-6}
	for b.Loop() {
		adadeltaUpdate(w, g, sq, acc, &c)
	}
}
