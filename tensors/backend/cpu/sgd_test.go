package cpu

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSGDKernelMatchesScalarLoop checks sgdVec against sgdScalar bit for bit in every mode
// (weight decay, momentum, first step, Nesterov), and sgdScalar against PyTorch's formulas.
func TestSGDKernelMatchesScalarLoop(t *testing.T) {
	if !useVecOptim {
		t.Skip("no AVX on this CPU")
	}
	r := rand.New(rand.NewPCG(7, 8))
	fill := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	for mode := int32(0); mode < 16; mode++ {
		if mode&2 == 0 && mode&12 != 0 {
			continue // first step and Nesterov only with momentum
		}
		k := sgdConsts{lr: 0.1, wd: 0.01, mom: 0.9, damp: 0.75, mode: mode}
		if mode&1 == 0 {
			k.wd = 0
		}
		const n = 40
		w, g, b := fill(n), fill(n), fill(n)
		wv, bv := slices.Clone(w), slices.Clone(b)
		ws, bs := slices.Clone(w), slices.Clone(b)
		sgdVec(&wv[0], &g[0], &bv[0], n, &k)
		sgdScalar(ws, g, bs, &k)
		if !slices.Equal(wv, ws) || !slices.Equal(bv, bs) {
			t.Fatalf("mode %04b: sgdVec differs from sgdScalar", mode)
		}
		for j := range w { // torch.optim.SGD's single-tensor step, element by element, unfused
			gj := g[j] + float32(k.wd*w[j])
			if mode&2 != 0 {
				if mode&4 != 0 {
					b[j] = gj
				} else {
					b[j] = float32(b[j]*k.mom) + float32(k.damp*gj)
				}
				if mode&8 != 0 {
					gj += float32(k.mom * b[j])
				} else {
					gj = b[j]
				}
			}
			if want := w[j] - float32(k.lr*gj); ws[j] != want {
				t.Fatalf("mode %04b: w[%d] = %v, want %v", mode, j, ws[j], want)
			}
		}
	}
}
