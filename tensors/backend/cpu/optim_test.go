package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
)

func vecOf(v []float32) backend.Vec {
	b := backend.NewHost(backend.F32, len(v))
	copy(b.F32, v)
	return backend.Vec{Buf: b, Len: len(v)}
}

// TestOptimizerStepsDoNotDependOnChunking updates the same parameters in one chunk each and in
// chunks of 7 elements spread over the cores: each element's update is independent, so the bits
// must agree.
func TestOptimizerStepsDoNotDependOnChunking(t *testing.T) {
	sizes := []int{1000, 3, 64}
	run := func(chunk int) [][]float32 {
		defer func(n int) { chunkElems = n }(chunkElems)
		chunkElems = chunk
		r := rand.New(rand.NewPCG(9, 9))
		var w, g, m, v, b []backend.Vec
		var as []backend.AdamScalars
		var ss []backend.SGDScalars
		for i, n := range sizes {
			w = append(w, vecOf(randF32(r, n, 1, false)))
			g = append(g, vecOf(randF32(r, n, 10, false)))
			m = append(m, vecOf(randF32(r, n, 1, false)))
			v = append(v, vecOf(randF32(r, n, 1e-3, true)))
			b = append(b, vecOf(randF32(r, n, 1, false)))
			as = append(as, backend.AdamScalars{Beta1: 0.9, OneMinusBeta1: 0.1, Beta2: 0.999, OneMinusBeta2: 0.001,
				BC2: 0.03, Eps: 1e-8, StepSize: -1e-3, Shrink: 0.9999, L2: float32(i%2) * 0.01})
			ss = append(ss, backend.SGDScalars{LR: 0.1, WeightDecay: 0.01, Momentum: 0.9, OneMinusDampening: 1, Nesterov: i == 1})
		}
		c := New()
		c.AdamStep(w, g, m, v, as)
		c.SGDStep(w, g, b, ss)
		var out [][]float32
		for i := range w {
			out = append(out, w[i].Buf.F32, m[i].Buf.F32, v[i].Buf.F32, b[i].Buf.F32)
		}
		return out
	}
	one, many := run(1<<14), run(7)
	for i := range one {
		for j := range one[i] {
			if math.Float32bits(one[i][j]) != math.Float32bits(many[i][j]) {
				t.Fatalf("vector %d element %d: %v in one chunk, %v in chunks of 7", i, j, one[i][j], many[i][j])
			}
		}
	}
}
