package backend_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// packed is a [B, T, 3, H, D] projection (queries, keys and values of every head side by side,
// as a fused qkv Linear writes them) and views of its q, k and v parts as [B, H, T, D].
type packed struct {
	buf     *backend.Buffer
	q, k, v backend.Strided
}

func newPacked(r *rand.Rand, dt backend.DType, b, h, t, d int) packed {
	n := b * t * 3 * h * d
	buf := backend.NewHost(dt, n)
	for i := range n {
		v := r.NormFloat64()
		if dt == backend.F64 {
			buf.F64[i] = v
		} else {
			buf.F32[i] = float32(v)
		}
	}
	st := []int{t * 3 * h * d, d, 3 * h * d, 1}
	part := func(i int) backend.Strided { return backend.Strided{Buf: buf, Offset: i * h * d, Strides: st} }
	return packed{buf, part(0), part(1), part(2)}
}

// outView is a [B, H, T, D] view of a [B, T, H, D] buffer (what the tensors package asks for, so
// the heads merge back into [B, T, H·D] without a copy).
func outView(dt backend.DType, b, h, t, d int) backend.Strided {
	return backend.Strided{Buf: backend.NewHost(dt, b*t*h*d), Strides: []int{t * h * d, d, h * d, 1}}
}

func maxDiff(a, b *backend.Buffer) float64 {
	m := 0.0
	for i := range a.Len {
		var x, y float64
		if a.DType == backend.F64 {
			x, y = a.F64[i], b.F64[i]
		} else {
			x, y = float64(a.F32[i]), float64(b.F32[i])
		}
		if math.IsNaN(x) || math.IsNaN(y) {
			return math.NaN()
		}
		m = max(m, math.Abs(x-y)/(1+math.Abs(y)))
	}
	return m
}

// TestFusedAttentionMatchesComposed runs the CPU's tiled kernel and the composed fallback (every
// weight materialised) on strided heads, across block boundaries, causal or not, with dropout,
// in both float types.
func TestFusedAttentionMatchesComposed(t *testing.T) {
	fused := cpu.New()
	composed := backend.Complete(coreOnly{cpu.New()})
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		b, h, tq, d int
		causal      bool
		dropout     float64
		dt          backend.DType
	}{
		{2, 3, 5, 4, true, 0, backend.F32},
		{1, 2, 70, 16, true, 0, backend.F32},
		{2, 2, 130, 8, false, 0, backend.F32},
		{1, 2, 130, 32, true, 0.25, backend.F32},
		{2, 1, 67, 6, true, 0.5, backend.F64},
		{1, 1, 1, 3, true, 0, backend.F64},
	} {
		t.Run(fmt.Sprintf("%dx%dx%dx%d_causal%v_drop%v_%s", c.b, c.h, c.tq, c.d, c.causal, c.dropout, c.dt), func(t *testing.T) {
			p := backend.AttentionParams{Batch: c.b, Heads: c.h, Tq: c.tq, Tk: c.tq, D: c.d, Dv: c.d,
				Scale: 1 / math.Sqrt(float64(c.d)), Causal: c.causal, Dropout: c.dropout, Seed: 99}
			in := newPacked(r, c.dt, c.b, c.h, c.tq, c.d)
			tol := 2e-5
			if c.dt == backend.F64 {
				tol = 1e-12
			}
			outs := [2]backend.Strided{}
			lses := [2]*backend.Buffer{}
			for i, be := range []backend.Backend{fused, composed} {
				outs[i] = outView(c.dt, c.b, c.h, c.tq, c.d)
				lses[i] = backend.NewHost(c.dt, p.Rows())
				be.Attention(outs[i], lses[i], in.q, in.k, in.v, p)
			}
			if d := maxDiff(outs[0].Buf, outs[1].Buf); !(d < tol) {
				t.Fatalf("out differs by %g", d)
			}
			if d := maxDiff(lses[0], lses[1]); !(d < tol) {
				t.Fatalf("lse differs by %g", d)
			}
			gout := newPacked(r, c.dt, c.b, c.h, c.tq, c.d).q
			grads := [2]packed{}
			for i, be := range []backend.Backend{fused, composed} {
				grads[i] = newPacked(r, c.dt, c.b, c.h, c.tq, c.d) // garbage the kernels must overwrite
				be.AttentionGrad(grads[i].q, grads[i].k, grads[i].v, gout, outs[0], lses[0], in.q, in.k, in.v, p)
			}
			if d := maxDiff(grads[0].buf, grads[1].buf); !(d < 10*tol) {
				t.Fatalf("gradients differ by %g", d)
			}
		})
	}
}

// TestAttentionMatchesTextbookFormula checks the composed attention itself against a direct
// float64 evaluation of softmax(q·kᵀ/√d + causal mask)·v.
func TestAttentionMatchesTextbookFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const b, h, tq, d = 1, 2, 9, 4
	in := newPacked(r, backend.F64, b, h, tq, d)
	p := backend.AttentionParams{Batch: b, Heads: h, Tq: tq, Tk: tq, D: d, Dv: d, Scale: 0.5, Causal: true}
	for _, be := range []backend.Backend{cpu.New(), backend.Complete(coreOnly{cpu.New()})} {
		out := outView(backend.F64, b, h, tq, d)
		be.Attention(out, backend.NewHost(backend.F64, p.Rows()), in.q, in.k, in.v, p)
		at := func(s backend.Strided, hh, i, j int) float64 {
			return s.Buf.F64[s.Offset+hh*s.Strides[1]+i*s.Strides[2]+j]
		}
		for hh := range h {
			for i := range tq {
				w := make([]float64, i+1)
				sum := 0.0
				for j := range w {
					for k := range d {
						w[j] += at(in.q, hh, i, k) * at(in.k, hh, j, k) * p.Scale
					}
				}
				m := w[0]
				for _, x := range w {
					m = math.Max(m, x)
				}
				for j := range w {
					w[j] = math.Exp(w[j] - m)
					sum += w[j]
				}
				for k := range d {
					want := 0.0
					for j := range w {
						want += w[j] / sum * at(in.v, hh, j, k)
					}
					if got := at(out, hh, i, k); math.Abs(got-want) > 1e-12 {
						t.Fatalf("%T: out[%d,%d,%d] = %v, formula %v", be, hh, i, k, got, want)
					}
				}
			}
		}
	}
}

// TestDropoutUniformIsUniform: the counter-based draws behind attention dropout are uniform
// and differ between seeds.
func TestDropoutUniformIsUniform(t *testing.T) {
	const n = 200000
	var hist [10]int
	same := 0
	for i := range uint64(n) {
		u := backend.DropoutUniform(7, i)
		if u < 0 || u >= 1 {
			t.Fatalf("draw %d = %v outside [0, 1)", i, u)
		}
		hist[int(u*10)]++
		if backend.DropoutUniform(8, i) == u {
			same++
		}
	}
	for i, c := range hist {
		if math.Abs(float64(c)-n/10) > 5*math.Sqrt(n/10) {
			t.Fatalf("decile %d has %d draws of %d", i, c, n)
		}
	}
	if same > n/1000 {
		t.Fatalf("seeds 7 and 8 agree on %d of %d draws", same, n)
	}
}

func TestTopKAndMultinomialComposedMatchCPU(t *testing.T) {
	c := cpu.New()
	g := backend.Complete(coreOnly{c})
	src := backend.NewHost(backend.F32, 2*7*3)
	r := rand.New(rand.NewPCG(7, 8))
	for i := range src.F32 {
		src.F32[i] = float32(r.IntN(5)) // ties
	}
	src.F32[4] = float32(math.NaN())
	for _, largest := range []bool{true, false} {
		va, vb := backend.NewHost(backend.F32, 2*4*3), backend.NewHost(backend.F32, 2*4*3)
		ia, ib := backend.NewHost(backend.I64, 2*4*3), backend.NewHost(backend.I64, 2*4*3)
		c.TopK(va, ia, src, 2, 7, 3, 4, largest)
		g.TopK(vb, ib, src, 2, 7, 3, 4, largest)
		for i := range ia.I64 {
			if ia.I64[i] != ib.I64[i] {
				t.Fatalf("largest=%v: index %d: %d, composed %d", largest, i, ia.I64[i], ib.I64[i])
			}
		}
	}
	probs := backend.NewHost(backend.F32, 3*5)
	for i := range probs.F32 {
		probs.F32[i] = float32(r.Float64())
	}
	u := backend.NewHost(backend.F64, 3*4)
	for i := range u.F64 {
		u.F64[i] = r.Float64()
	}
	for _, repl := range []bool{true, false} {
		a, b := backend.NewHost(backend.I64, 12), backend.NewHost(backend.I64, 12)
		c.Multinomial(a, probs, u, 3, 5, 4, repl)
		g.Multinomial(b, probs, u, 3, 5, 4, repl)
		for i := range a.I64 {
			if a.I64[i] != b.I64[i] {
				t.Fatalf("replacement=%v: draw %d: %d, composed %d", repl, i, a.I64[i], b.I64[i])
			}
		}
	}
}

func TestTopKRowOrdersAndBreaksTies(t *testing.T) {
	row := []float64{3, 1, 3, math.NaN(), -2, 5}
	for _, c := range []struct {
		k       int
		largest bool
		want    []int64
	}{
		{3, true, []int64{3, 5, 0}},
		{4, true, []int64{3, 5, 0, 2}},
		{2, false, []int64{4, 1}},
		{6, false, []int64{4, 1, 0, 2, 5, 3}},
	} {
		got := make([]int64, c.k)
		backend.TopKRow(got, row, c.largest)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("k=%d largest=%v: %v, want %v", c.k, c.largest, got, c.want)
		}
	}
}

func TestMultinomialRowFollowsWeights(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	w := []float64{1, 0, 3, 6}
	counts := make([]int, 4)
	const n = 100000
	dst, u := make([]int64, 1), make([]float64, 1)
	for range n {
		u[0] = r.Float64()
		backend.MultinomialRow(dst, append([]float64(nil), w...), u, true)
		counts[dst[0]]++
	}
	for j, c := range counts {
		want := w[j] / 10 * n
		if math.Abs(float64(c)-want) > 5*math.Sqrt(want+1) {
			t.Fatalf("index %d drawn %d times, want about %.0f", j, c, want)
		}
	}
	all := make([]int64, 3)
	backend.MultinomialRow(all, []float64{1, 0, 3, 6}, []float64{0.99, 0.99, 0.99}, false)
	seen := map[int64]bool{}
	for _, j := range all {
		if j == 1 || seen[j] {
			t.Fatalf("draws without replacement %v repeat an index or pick a zero weight", all)
		}
		seen[j] = true
	}
}
