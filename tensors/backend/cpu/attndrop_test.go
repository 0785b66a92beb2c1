package cpu

import (
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

// TestDropRowMakesDropoutKeepsDecisions: the incremental draw and the integer threshold keep
// and drop exactly the weights backend.DropoutKeep does, for any probability.
func TestDropRowMakesDropoutKeepsDecisions(t *testing.T) {
	for _, prob := range []float64{1e-9, 0.1, 0.25, 1.0 / 3, 0.5, 0.9, 0.999999} {
		p := backend.AttentionParams{Batch: 2, Heads: 3, Tq: 5, Tk: 300, Dropout: prob, Seed: 0xfeed + uint64(prob*1000)}
		w := make([]float64, p.Tk-7)
		for i := range w {
			w[i] = 1
		}
		dropRow(w, p, 1, 2, 4, 7)
		base := uint64(((1*p.Heads+2)*p.Tq+4)*p.Tk + 7)
		for j, v := range w {
			keep := backend.DropoutKeep(p.Seed, base+uint64(j), p.Dropout)
			if keep != (v != 0) || (keep && v != p.KeepScale()) {
				t.Fatalf("p %v, key %d: dropRow gives %v, DropoutKeep %v", prob, j, v, keep)
			}
		}
	}
}

func BenchmarkDropRow(b *testing.B) {
	p := backend.AttentionParams{Batch: 1, Heads: 1, Tq: 1, Tk: 64, Dropout: 0.1, Seed: 3}
	w := make([]float32, 64)
	b.SetBytes(4 * 64)
	for range b.N {
		dropRow(w, p, 0, 0, 0, 0)
	}
}
