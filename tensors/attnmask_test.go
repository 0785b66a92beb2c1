package tensors

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// maskOf is a [len(rows), len(rows[0])] int64 key padding mask on d.
func maskOf(d Device, rows ...[]int64) *Tensor {
	var v []int64
	for _, r := range rows {
		v = append(v, r...)
	}
	return aux(FromInt64(v, len(rows), len(rows[0])).To(d))
}

// TestMaskedAttentionGradientsMatchFiniteDifferences checks the key padding mask's backward
// pass on every device: right and left padding, causal rows that see no key (left padding under
// a causal mask), a batch row with every key masked, a float mask, dropout, and the packed
// projection of MultiHeadAttention.
func TestMaskedAttentionGradientsMatchFiniteDifferences(t *testing.T) {
	qkv := func(g *Generator) []*Tensor {
		return ins(randF64(g, -1, 1, 2, 2, 5, 3), randF64(g, -1, 1, 2, 2, 6, 3), randF64(g, -1, 1, 2, 2, 6, 2))
	}
	self := func(g *Generator) []*Tensor {
		return ins(randF64(g, -1, 1, 2, 2, 6, 3), randF64(g, -1, 1, 2, 2, 6, 3), randF64(g, -1, 1, 2, 2, 6, 2))
	}
	cases := []gradCase{
		{"right-padding", qkv, func(x []*Tensor, d Device) *Tensor {
			m := maskOf(d, []int64{1, 1, 1, 1, 0, 0}, []int64{1, 1, 1, 1, 1, 1})
			return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{KeyMask: m})
		}},
		{"left-padding-causal", self, func(x []*Tensor, d Device) *Tensor {
			// Queries 0 and 1 of the first row see only padding: zeros, no gradient.
			m := maskOf(d, []int64{0, 0, 1, 1, 1, 1}, []int64{0, 1, 1, 1, 1, 1})
			return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{KeyMask: m, Causal: true})
		}},
		{"all-masked-row-float-mask", qkv, func(x []*Tensor, d Device) *Tensor {
			m := aux(NewFloat64([]float64{0, 0, 0, 0, 0, 0, 1, 0, 0.5, 1, 0, 1}, 2, 6).To(d))
			return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{KeyMask: m, Scale: 0.8})
		}},
		{"holes-dropout", qkv, func(x []*Tensor, d Device) *Tensor {
			m := maskOf(d, []int64{1, 0, 1, 0, 1, 1}, []int64{0, 1, 1, 0, 1, 0})
			return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{KeyMask: m, Dropout: 0.3, Gen: NewGenerator(5)})
		}},
		{"multi-head-packed", func(g *Generator) []*Tensor { return ins(randF64(g, -1, 1, 2, 4, 12)) }, func(x []*Tensor, d Device) *Tensor {
			m := maskOf(d, []int64{0, 1, 1, 1}, []int64{1, 1, 0, 0})
			return MultiHeadAttention(x[0], 2, AttentionOptions{Causal: true, KeyMask: m, Dropout: 0.25, Gen: NewGenerator(6)})
		}},
	}
	for _, d := range testDevices {
		for _, c := range cases {
			t.Run(d.String()+"/"+c.name, func(t *testing.T) {
				checkGrad(t, c.f, c.in(NewGenerator(1)), d)
			})
		}
	}
}

// TestPaddedRowAttendsAsTheSequenceAlone: with right or left padding masked, every real query
// of a padded row gets what attention over its real tokens alone gives, and its gradient; a
// query that sees nothing gets exact zeros.
func TestPaddedRowAttendsAsTheSequenceAlone(t *testing.T) {
	const tk, n, h, dh = 9, 5, 2, 4
	g := NewGenerator(3)
	qs, ks, vs := g.Randn(1, h, tk, dh).Float32s(), g.Randn(1, h, tk, dh).Float32s(), g.Randn(1, h, tk, dh).Float32s()
	// leaf is a fresh leaf on d holding values (reshaped [1, h, tk, dh]) or, with the real
	// tokens' range, just those.
	leaf := func(values []float32, d Device, lo, hi int) *Tensor {
		x := New(values, 1, h, tk, dh).Slice(2, lo, hi).Contiguous()
		return x.To(d).SetRequiresGrad(true)
	}
	for _, d := range testDevices {
		for _, left := range []bool{false, true} {
			for _, causal := range []bool{false, true} {
				name := fmt.Sprintf("%s/left=%v/causal=%v", d, left, causal)
				off := 0
				mask := make([]int64, tk)
				for j := range n {
					mask[j] = 1
				}
				if left {
					off = tk - n
					clear(mask)
					for j := off; j < tk; j++ {
						mask[j] = 1
					}
				}
				real := func(x *Tensor) *Tensor { return x.Slice(2, off, off+n) }
				qd, kd, vd := leaf(qs, d, 0, tk), leaf(ks, d, 0, tk), leaf(vs, d, 0, tk)
				// Causal attention is top-left aligned: under left padding, real query off+a sees
				// keys off..off+a, as query a of the sequence alone sees 0..a.
				out := ScaledDotProductAttention(qd, kd, vd, AttentionOptions{Causal: causal, KeyMask: FromInt64(mask, 1, tk).To(d)})
				if left && causal {
					for _, x := range out.Slice(2, 0, off).Float32s() {
						if x != 0 {
							t.Fatalf("%s: a query that sees no key got %v", name, x)
						}
					}
				}
				r := NewGenerator(4).Randn(1, h, n, dh).To(d)
				real(out).Mul(r).Sum().Backward()
				qa, ka, va := leaf(qs, d, off, off+n), leaf(ks, d, off, off+n), leaf(vs, d, off, off+n)
				alone := ScaledDotProductAttention(qa, ka, va, AttentionOptions{Causal: causal})
				alone.Mul(r).Sum().Backward()
				for _, c := range []struct {
					what      string
					got, want *Tensor
				}{
					{"out", real(out), alone},
					{"dq", real(qd.Grad()), qa.Grad()},
					{"dk", real(kd.Grad()), ka.Grad()},
					{"dv", real(vd.Grad()), va.Grad()},
				} {
					got, want := c.got.Float32s(), c.want.Float32s()
					for i := range want {
						if math.Abs(float64(got[i]-want[i])) > 1e-5 {
							t.Fatalf("%s: %s[%d] = %v, alone %v", name, c.what, i, got[i], want[i])
						}
					}
				}
				for _, x := range append(kd.Grad().Float32s(), vd.Grad().Float32s()...) {
					if math.IsNaN(float64(x)) {
						t.Fatalf("%s: NaN in a key gradient", name)
					}
				}
				var padded []float32
				if left {
					padded = append(kd.Grad().Slice(2, 0, off).Float32s(), vd.Grad().Slice(2, 0, off).Float32s()...)
				} else {
					padded = append(kd.Grad().Slice(2, n, tk).Float32s(), vd.Grad().Slice(2, n, tk).Float32s()...)
				}
				for _, x := range padded {
					if x != 0 {
						t.Fatalf("%s: a masked key got gradient %v", name, x)
					}
				}
			}
		}
	}
}

// TestKeyMaskChecksItsShape: a mask that is not [B, Tk] panics with the shape it needs.
func TestKeyMaskChecksItsShape(t *testing.T) {
	q := Zeros(2, 1, 3, 4)
	for name, m := range map[string]*Tensor{"rank": Ones(2), "batch": Ones(3, 3), "keys": Ones(2, 4)} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "KeyMask must be [B, Tk] = [2, 3]") {
					t.Errorf("%s: panic %v, want one naming KeyMask and [2, 3]", name, r)
				}
			}()
			ScaledDotProductAttention(q, q, q, AttentionOptions{KeyMask: m})
		}()
	}
}
