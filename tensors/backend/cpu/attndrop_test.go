package cpu

import (
	"math"
	"slices"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// TestDropRowMakesDropoutKeepsDecisions: the incremental draw and the integer threshold keep
// and drop exactly the weights backend.DropoutKeep does, for any probability, in float32 (bits
// masked) and float64 (branches).
func TestDropRowMakesDropoutKeepsDecisions(t *testing.T) {
	for _, prob := range []float64{1e-9, 0.1, 0.25, 1.0 / 3, 0.5, 0.9, 0.999999} {
		p := backend.AttentionParams{Batch: 2, Heads: 3, Tq: 5, Tk: 300, Dropout: prob, Seed: 0xfeed + uint64(prob*1000)}
		base := uint64(((1*p.Heads+2)*p.Tq+4)*p.Tk + 7)
		check := func(dtype string, got func(j int) float64, ks float64) {
			for j := range p.Tk - 7 {
				keep := backend.DropoutKeep(p.Seed, base+uint64(j), p.Dropout)
				if v := got(j); keep != (v != 0) || (keep && v != ks) || (!keep && math.Signbit(v)) {
					t.Fatalf("%s, p %v, key %d: dropRow gives %v, DropoutKeep %v", dtype, prob, j, v, keep)
				}
			}
		}
		w64 := make([]float64, p.Tk-7)
		w32 := make([]float32, p.Tk-7)
		for i := range w64 {
			w64[i], w32[i] = 1, 1
		}
		dropRow(w64, p, 1, 2, 4, 7)
		dropRow(w32, p, 1, 2, 4, 7)
		check("float64", func(j int) float64 { return w64[j] }, p.KeepScale())
		check("float32", func(j int) float64 { return float64(w32[j]) }, float64(float32(p.KeepScale())))
	}
}

// TestDropSoftmaxGradRowMatchesBranches: float32's masked factor gives the bits of the branching
// form (Z = 0 where the dropped weight is ±0, else ks) for every kind of dropped weight.
func TestDropSoftmaxGradRowMatchesBranches(t *testing.T) {
	nan := float32(math.NaN())
	pd := []float32{0, float32(math.Copysign(0, -1)), 1.25, -3, nan, float32(math.Inf(1)), 1e-45, 0.5}
	w := []float32{0.5, 0.25, 0.125, 1, 0.75, 0.375, 2, 0}
	dp := []float32{1.5, -2, 0.25, 3, -1, 7, 0.5, nan}
	const ks, d = float32(1 / 0.9), float32(0.3)
	got := slices.Clone(dp)
	dropSoftmaxGradRow(got, w, pd, ks, d)
	for j := range dp {
		z := ks
		if pd[j] == 0 {
			z = 0
		}
		want := w[j] * (dp[j]*z - d)
		if math.Float32bits(got[j]) != math.Float32bits(want) {
			t.Errorf("pd %v, w %v, dP %v: got %v, want %v", pd[j], w[j], dp[j], got[j], want)
		}
	}
}

// BenchmarkDropRow drops a row of 64 weights, a different row each time (as attention does: the
// same row again would let the branch predictor learn its decisions).
func BenchmarkDropRow(b *testing.B) {
	p := backend.AttentionParams{Batch: 1, Heads: 1, Tq: 1 << 20, Tk: 64, Dropout: 0.1, Seed: 3}
	w := make([]float32, 64)
	b.SetBytes(4 * 64)
	for i := range b.N {
		dropRow(w, p, 0, 0, i%p.Tq, 0)
	}
}
