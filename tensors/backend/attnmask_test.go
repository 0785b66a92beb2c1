package backend_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu"
)

// keyPattern makes a [b, tk] key padding mask (1 = visible) on the host.
type keyPattern func(b, j, tk int) bool

var keyPatterns = map[string]keyPattern{
	// Row b keeps its first tk-7b keys (the rest is right padding), crossing block boundaries.
	"right": func(b, j, tk int) bool { return j < tk-7*b },
	// Row b starts after 3+9b pads (left padding, as decoders batch prompts).
	"left": func(b, j, tk int) bool { return j >= 3+9*b },
	// Holes inside blocks and a row with a single visible key.
	"holes": func(b, j, tk int) bool {
		if b == 1 {
			return j == tk/2
		}
		return j%5 != 2 && j != 64
	},
	// Row 0 sees no key at all.
	"none": func(b, j, tk int) bool { return b == 1 && j%3 != 0 },
}

func newKeyMask(f keyPattern, b, tk int) *backend.Buffer {
	m := backend.NewHost(backend.I64, b*tk)
	for r := range b {
		for j := range tk {
			if f(r, j, tk) {
				m.I64[r*tk+j] = 1
			}
		}
	}
	return m
}

// closeBuffers is the largest relative difference between two float buffers; equal values
// (infinities included) count as no difference, a NaN as an infinite one.
func closeBuffers(a, b *backend.Buffer) float64 {
	m := 0.0
	for i := range a.Len {
		var x, y float64
		if a.DType == backend.F64 {
			x, y = a.F64[i], b.F64[i]
		} else {
			x, y = float64(a.F32[i]), float64(b.F32[i])
		}
		switch {
		case x == y:
		case math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0):
			return math.Inf(1)
		default:
			m = max(m, math.Abs(x-y)/(1+math.Abs(y)))
		}
	}
	return m
}

// TestMaskedAttentionMatchesTextbookFormula checks the CPU kernel and the composed attention
// against a float64 evaluation of softmax over the keys each query sees (causal and key mask
// together), and that a query seeing no key gets zeros and a log-sum-exp of +Inf.
func TestMaskedAttentionMatchesTextbookFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const b, h, tq, d = 2, 2, 20, 4
	for name, pat := range keyPatterns {
		for _, causal := range []bool{false, true} {
			in := newPacked(r, backend.F64, b, h, tq, d)
			p := backend.AttentionParams{Batch: b, Heads: h, Tq: tq, Tk: tq, D: d, Dv: d, Scale: 0.5, Causal: causal, KeyMask: newKeyMask(pat, b, tq)}
			for _, be := range []backend.Backend{cpu.New(), backend.Complete(coreOnly{cpu.New()})} {
				out := outView(backend.F64, b, h, tq, d)
				lse := backend.NewHost(backend.F64, p.Rows())
				be.Attention(out, lse, in.q, in.k, in.v, p)
				at := func(s backend.Strided, bb, hh, i, j int) float64 {
					return s.Buf.F64[s.Offset+bb*s.Strides[0]+hh*s.Strides[1]+i*s.Strides[2]+j]
				}
				for bb := range b {
					for hh := range h {
						for i := range tq {
							var keys []int
							for j := range tq {
								if p.Visible(i, j) && pat(bb, j, tq) {
									keys = append(keys, j)
								}
							}
							w := make([]float64, len(keys))
							m := math.Inf(-1)
							for n, j := range keys {
								for k := range d {
									w[n] += at(in.q, bb, hh, i, k) * at(in.k, bb, hh, j, k) * p.Scale
								}
								m = math.Max(m, w[n])
							}
							sum := 0.0
							for n := range w {
								w[n] = math.Exp(w[n] - m)
								sum += w[n]
							}
							row := (bb*h+hh)*tq + i
							if len(keys) == 0 {
								if !math.IsInf(lse.F64[row], 1) {
									t.Fatalf("%s causal %v %T: row %d sees no key, lse %v, want +Inf", name, causal, be, row, lse.F64[row])
								}
							} else if want := m + math.Log(sum); math.Abs(lse.F64[row]-want) > 1e-12 {
								t.Fatalf("%s causal %v %T: lse[%d] = %v, formula %v", name, causal, be, row, lse.F64[row], want)
							}
							for k := range d {
								want := 0.0
								for n, j := range keys {
									want += w[n] / sum * at(in.v, bb, hh, j, k)
								}
								if got := at(out, bb, hh, i, k); math.Abs(got-want) > 1e-12 {
									t.Fatalf("%s causal %v %T: out[%d,%d,%d,%d] = %v, formula %v", name, causal, be, bb, hh, i, k, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestFusedMaskedAttentionMatchesComposed runs the CPU's tiled kernel and the composed
// fallback with key padding masks over several key blocks (right and left padding, holes inside
// blocks, rows that see nothing), causal or not, with dropout, forward and backward.
func TestFusedMaskedAttentionMatchesComposed(t *testing.T) {
	fused := cpu.New()
	composed := backend.Complete(coreOnly{cpu.New()})
	r := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct {
		b, h, tq, d int
		pattern     string
		causal      bool
		dropout     float64
		dt          backend.DType
	}{
		{2, 3, 130, 8, "right", false, 0, backend.F32},
		{2, 2, 130, 8, "left", true, 0, backend.F32},
		{2, 2, 140, 16, "holes", false, 0.25, backend.F32},
		{2, 1, 70, 6, "none", true, 0, backend.F64},
		{2, 2, 67, 4, "holes", true, 0.5, backend.F64},
		{2, 1, 9, 3, "left", false, 0, backend.F64},
	} {
		t.Run(fmt.Sprintf("%s_%dx%dx%dx%d_causal%v_drop%v_%s", c.pattern, c.b, c.h, c.tq, c.d, c.causal, c.dropout, c.dt), func(t *testing.T) {
			p := backend.AttentionParams{Batch: c.b, Heads: c.h, Tq: c.tq, Tk: c.tq, D: c.d, Dv: c.d,
				Scale: 1 / math.Sqrt(float64(c.d)), Causal: c.causal, Dropout: c.dropout, Seed: 77,
				KeyMask: newKeyMask(keyPatterns[c.pattern], c.b, c.tq)}
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
			if d := closeBuffers(outs[0].Buf, outs[1].Buf); !(d < tol) {
				t.Fatalf("out differs by %g", d)
			}
			if d := closeBuffers(lses[0], lses[1]); !(d < tol) {
				t.Fatalf("lse differs by %g", d)
			}
			gout := newPacked(r, c.dt, c.b, c.h, c.tq, c.d).q
			grads := [2]packed{}
			for i, be := range []backend.Backend{fused, composed} {
				grads[i] = newPacked(r, c.dt, c.b, c.h, c.tq, c.d) // garbage the kernels must overwrite
				be.AttentionGrad(grads[i].q, grads[i].k, grads[i].v, gout, outs[0], lses[0], in.q, in.k, in.v, p)
			}
			if d := closeBuffers(grads[0].buf, grads[1].buf); !(d < 10*tol) {
				t.Fatalf("gradients differ by %g", d)
			}
		})
	}
}
