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

// TestAdamL2StepRoundsEveryOperation checks Adam's L2 path against the update it stands for: the
// gradient with the L2 term folded in (rounded to float32), then the plain update (adamScalar,
// which rounds every operation). A compiler that fuses a multiply-add in the L2 loop (arm64's)
// gives other bits, and training on arm64 would drift from amd64.
func TestAdamL2StepRoundsEveryOperation(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		l2   float32
	}{
		{"short", 5, 0.01},
		{"long", 1000, 0.01},
		{"large decay", 300, 0.3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(tc.n)))
			w, g := randF32(r, tc.n, 1, false), randF32(r, tc.n, 10, false)
			m, v := randF32(r, tc.n, 1, false), randF32(r, tc.n, 1e-3, true)
			sc := backend.AdamScalars{Beta1: 0.9, OneMinusBeta1: 0.1, Beta2: 0.999, OneMinusBeta2: 0.001,
				BC2: 0.03, Eps: 1e-8, StepSize: -1e-3, Shrink: 1, L2: tc.l2}

			wantW, wantM, wantV := append([]float32(nil), w...), append([]float32(nil), m...), append([]float32(nil), v...)
			folded := make([]float32, tc.n)
			for j := range g {
				folded[j] = g[j] + float32(tc.l2*w[j])
			}
			k := adamConsts{sc.Beta1, sc.OneMinusBeta1, sc.Beta2, sc.OneMinusBeta2, sc.BC2, sc.Eps, sc.StepSize, 1}
			adamScalar(wantW, folded, wantM, wantV, &k)

			gotW, gotM, gotV := vecOf(w), vecOf(m), vecOf(v)
			New().AdamStep([]backend.Vec{gotW}, []backend.Vec{vecOf(g)}, []backend.Vec{gotM}, []backend.Vec{gotV},
				[]backend.AdamScalars{sc})
			for _, c := range []struct {
				name      string
				got, want []float32
			}{{"w", gotW.Buf.F32, wantW}, {"m", gotM.Buf.F32, wantM}, {"v", gotV.Buf.F32, wantV}} {
				for j := range c.want {
					if math.Float32bits(c.got[j]) != math.Float32bits(c.want[j]) {
						t.Fatalf("%s[%d] = %v, want %v (the L2 update's rounding differs from the folded gradient's)",
							c.name, j, c.got[j], c.want[j])
					}
				}
			}
		})
	}
}
