package backendtest

import (
	"fmt"
	"math"
	"sort"

	"github.com/goaccel/goaccel/tensors/backend"
)

// heads is a [Batch, Heads, T, D] operand of attention: a view of a buffer and the buffer's
// values.
type heads struct {
	v    []float64
	view backend.Strided
}

// at returns element (b, h, t, d).
func (x heads) at(b, h, t, d int) float64 {
	st := x.view.Strides
	return x.v[x.view.Offset+b*st[0]+h*st[1]+t*st[2]+d*st[3]]
}

// pos is element (b, h, t, d)'s position in its buffer.
func (x heads) pos(b, h, t, d int) int {
	st := x.view.Strides
	return x.view.Offset + b*st[0] + h*st[1] + t*st[2] + d*st[3]
}

// attentionRef is softmax(Scale·q·kᵀ, masked)·v with dropout in float64: out, lse, and the
// gradients of q, k and v given gout (laid out as out's view says; nil gout skips them). keyMask
// is p.KeyMask's values ([Batch, Tk], nil: every key); a query that sees no key outputs zeros,
// has log-sum-exp +Inf and passes no gradient back.
func attentionRef(p backend.AttentionParams, keyMask []float64, q, k, v, out heads, gout []float64) (o, lse, dq, dk, dv []float64) {
	o, lse = make([]float64, len(out.v)), make([]float64, p.Rows())
	copy(o, out.v)
	dq, dk, dv = make([]float64, len(q.v)), make([]float64, len(k.v)), make([]float64, len(v.v))
	for b := range p.Batch {
		for h := range p.Heads {
			for i := range p.Tq {
				row := (b*p.Heads+h)*p.Tq + i
				visible := func(j int) bool { return p.Visible(i, j) && (keyMask == nil || keyMask[b*p.Tk+j] != 0) }
				scores := make([]float64, p.Tk)
				m := math.Inf(-1)
				for j := range p.Tk {
					if !visible(j) {
						continue
					}
					for d := range p.D {
						scores[j] += q.at(b, h, i, d) * k.at(b, h, j, d)
					}
					scores[j] *= p.Scale
					m = max(m, scores[j])
				}
				z := 0.0
				for j := range p.Tk {
					if visible(j) {
						z += math.Exp(scores[j] - m)
					}
				}
				if p.Tk > 0 && math.IsInf(m, -1) { // no visible key
					lse[row] = math.Inf(1)
					for d := range p.Dv {
						o[out.pos(b, h, i, d)] = 0
					}
					continue
				}
				lse[row] = m + math.Log(z)
				prob, drop := make([]float64, p.Tk), make([]float64, p.Tk)
				for j := range p.Tk {
					if visible(j) {
						prob[j] = math.Exp(scores[j] - lse[row])
						if backend.DropoutKeep(p.Seed, uint64(row*p.Tk+j), p.Dropout) {
							drop[j] = p.KeepScale()
						}
					}
				}
				for d := range p.Dv {
					sum := 0.0
					for j := range p.Tk {
						sum += prob[j] * drop[j] * v.at(b, h, j, d)
					}
					if p.Tk == 0 {
						sum = math.NaN() // the softmax of no keys
					}
					o[out.pos(b, h, i, d)] = sum
				}
				if gout == nil {
					continue
				}
				g := func(d int) float64 { return gout[out.pos(b, h, i, d)] }
				// dA_j = D_j·(gout·v_j), dS_j = P_j·(dA_j − Σ P·dA), Σ P·dA = gout·out.
				dot := 0.0
				for d := range p.Dv {
					dot += g(d) * o[out.pos(b, h, i, d)]
				}
				for j := range p.Tk {
					if !visible(j) {
						continue
					}
					da := 0.0
					for d := range p.Dv {
						da += g(d) * v.at(b, h, j, d)
						dv[v.pos(b, h, j, d)] += prob[j] * drop[j] * g(d)
					}
					ds := prob[j] * (drop[j]*da - dot) * p.Scale
					for d := range p.D {
						dq[q.pos(b, h, i, d)] += ds * k.at(b, h, j, d)
						dk[k.pos(b, h, j, d)] += ds * q.at(b, h, i, d)
					}
				}
			}
		}
	}
	return o, lse, dq, dk, dv
}

// keyMask returns a [batch, tk] 0/1 key mask: row 0 padded on the left (its first lead keys)
// and on the right (from tk−tail), the other rows with holes every third key and a padded tail.
func keyMask(batch, tk, lead, tail int) []float64 {
	m := make([]float64, batch*tk)
	for b := range batch {
		for j := range tk {
			keep := j >= lead && j < tk-tail
			if b > 0 {
				keep = j%3 != 1 && j < tk-tail-b
			}
			if keep {
				m[b*tk+j] = 1
			}
		}
	}
	return m
}

// checkAttention: causal and full attention with dropout, queries and keys of different
// lengths and head sizes, heads read in place from a packed q|k|v projection and written into
// [Batch, T, Heads, Dv], rows across the tiles of a blocked kernel, key padding masks (left,
// right and holes; with causal, queries that see no key); and the gradients.
func checkAttention(s *suite) {
	cases := []struct {
		p      backend.AttentionParams
		packed bool      // q, k and v are views of one [B, T, 3, H, D] buffer
		mask   []float64 // the key mask's values ([Batch, Tk]), nil for none
	}{
		{backend.AttentionParams{Batch: 2, Heads: 2, Tq: 5, Tk: 7, D: 40, Dv: 36, Scale: 0.2, Causal: true, Dropout: 0.2, Seed: 11}, false, nil},
		{backend.AttentionParams{Batch: 1, Heads: 2, Tq: 70, Tk: 70, D: 16, Dv: 16, Scale: 0.25, Causal: true}, true, nil},
		{backend.AttentionParams{Batch: 2, Heads: 1, Tq: 130, Tk: 130, D: 8, Dv: 8, Scale: 0.35, Dropout: 0.5, Seed: 3}, true, nil},
		{backend.AttentionParams{Batch: 1, Heads: 3, Tq: 1, Tk: 9, D: 4, Dv: 6, Scale: 0.5}, false, nil},
		{backend.AttentionParams{Batch: 3, Heads: 2, Tq: 7, Tk: 7, D: 8, Dv: 8, Scale: 0.4, Causal: true}, false, keyMask(3, 7, 2, 1)},
		{backend.AttentionParams{Batch: 2, Heads: 2, Tq: 70, Tk: 70, D: 16, Dv: 16, Scale: 0.25, Dropout: 0.2, Seed: 5}, true, keyMask(2, 70, 5, 20)},
		{backend.AttentionParams{Batch: 2, Heads: 3, Tq: 1, Tk: 40, D: 8, Dv: 8, Scale: 0.5}, false, keyMask(2, 40, 3, 4)},
	}
	for _, dt := range floats {
		for _, c := range cases {
			p := c.p
			if c.mask != nil {
				p.KeyMask = s.put(backend.I64, c.mask)
			}
			what := fmt.Sprintf("%s %+v packed %v key mask %v", dt, p, c.packed, c.mask != nil)
			var q, k, v heads
			var qb, kb, vb *backend.Buffer
			if c.packed {
				buf, vals := s.rand(dt, p.Batch*p.Tq*3*p.Heads*p.D, -1, 1)
				st := []int{p.Tq * 3 * p.Heads * p.D, p.D, 3 * p.Heads * p.D, 1}
				part := func(i int) heads { return heads{vals, view(buf, i*p.Heads*p.D, st...)} }
				q, k, v, qb, kb, vb = part(0), part(1), part(2), buf, buf, buf
			} else {
				var qv, kv, vv []float64
				qb, qv = s.rand(dt, p.Batch*p.Heads*p.Tq*p.D, -1, 1)
				kb, kv = s.rand(dt, p.Batch*p.Heads*p.Tk*p.D, -1, 1)
				vb, vv = s.rand(dt, p.Batch*p.Heads*p.Tk*p.Dv, -1, 1)
				q = heads{qv, view(qb, 0, backend.ContiguousStrides(p.Batch, p.Heads, p.Tq, p.D)...)}
				k = heads{kv, view(kb, 0, backend.ContiguousStrides(p.Batch, p.Heads, p.Tk, p.D)...)}
				v = heads{vv, view(vb, 0, backend.ContiguousStrides(p.Batch, p.Heads, p.Tk, p.Dv)...)}
			}
			// out is [B, H, Tq, Dv] inside [B, Tq, H, Dv], as the heads merge back without a copy.
			ob, ov := s.poison(dt, p.Batch*p.Tq*p.Heads*p.Dv)
			out := heads{ov, view(ob, 0, p.Tq*p.Heads*p.Dv, p.Dv, p.Heads*p.Dv, 1)}
			lse, _ := s.poison(dt, p.Rows())
			s.be.Attention(out.view, lse, q.view, k.view, v.view, p)
			gout := s.uniform(len(ov), -1, 1)
			for i := range gout {
				gout[i] = round(dt, gout[i])
			}
			wantO, wantLse, wantDq, wantDk, wantDv := attentionRef(p, c.mask, q, k, v, out, gout)
			s.expect("Attention out "+what, ob, wantO, 10*tolerance(dt))
			s.expect("Attention lse "+what, lse, wantLse, 10*tolerance(dt))

			gb := s.put(dt, gout)
			// The gradients go into buffers laid out as their operands (one packed buffer when the
			// operands are packed: each gradient writes only its own view).
			dqb, dkb, dvb := s.be.AllocUninit(dt, qb.Len), s.be.AllocUninit(dt, kb.Len), s.be.AllocUninit(dt, vb.Len)
			if c.packed {
				dkb, dvb = dqb, dqb
			}
			at := func(b *backend.Buffer, x heads) backend.Strided { return view(b, x.view.Offset, x.view.Strides...) }
			s.be.AttentionGrad(at(dqb, q), at(dkb, k), at(dvb, v), view(gb, 0, out.view.Strides...), out.view, lse, q.view, k.view, v.view, p)
			if c.packed {
				sum := make([]float64, len(wantDq))
				for i := range sum {
					sum[i] = wantDq[i] + wantDk[i] + wantDv[i]
				}
				s.expect("AttentionGrad dq|dk|dv "+what, dqb, sum, 100*tolerance(dt))
				continue
			}
			s.expect("AttentionGrad dq "+what, dqb, wantDq, 100*tolerance(dt))
			s.expect("AttentionGrad dk "+what, dkb, wantDk, 100*tolerance(dt))
			s.expect("AttentionGrad dv "+what, dvb, wantDv, 100*tolerance(dt))
		}
	}
}

// topKRef is the k largest (smallest) along the middle axis, sorted, equal values in position
// order, NaN the largest value.
func topKRef(v []float64, outer, n, inner, k int, largest bool) (vals, idx []float64) {
	vals, idx = make([]float64, outer*k*inner), make([]float64, outer*k*inner)
	for o := range outer {
		for i := range inner {
			pos := make([]int, n)
			for j := range pos {
				pos[j] = j
			}
			x := func(j int) float64 { return v[(o*n+j)*inner+i] }
			sort.SliceStable(pos, func(a, b int) bool {
				xa, xb := x(pos[a]), x(pos[b])
				an, bn := math.IsNaN(xa), math.IsNaN(xb)
				switch {
				case an || bn:
					return !(an && bn) && an == largest
				case largest:
					return xa > xb
				}
				return xa < xb
			})
			for r := range k {
				vals[(o*k+r)*inner+i], idx[(o*k+r)*inner+i] = x(pos[r]), float64(pos[r])
			}
		}
	}
	return vals, idx
}

// checkTopK: largest and smallest along middle axes of inner 1 and more, every element, ties
// and NaN.
func checkTopK(s *suite) {
	for _, dt := range floats {
		for _, c := range []struct{ outer, n, inner, k int }{{3, 20, 2, 4}, {2, 7, 1, 7}, {1, 1031, 1, 5}, {2, 40, 3, 1}} {
			v := s.ints(c.outer*c.n*c.inner, -6, 6)
			v[4] = math.NaN()
			src := s.put(dt, v)
			for _, largest := range []bool{true, false} {
				what := fmt.Sprintf("%s [%d %d %d] k %d largest %v", dt, c.outer, c.n, c.inner, c.k, largest)
				vals, _ := s.poison(dt, c.outer*c.k*c.inner)
				idx, _ := s.poison(backend.I64, c.outer*c.k*c.inner)
				s.be.TopK(vals, idx, src, c.outer, c.n, c.inner, c.k, largest)
				wantV, wantI := topKRef(v, c.outer, c.n, c.inner, c.k, largest)
				s.expect("TopK values "+what, vals, wantV, 0)
				s.expect("TopK indices "+what, idx, wantI, 0)
			}
		}
	}
}

// multinomialRef draws by the inverse CDF in float64: index j when u·Σw falls in
// [Σ_{i<j} w_i, Σ_{i≤j} w_i), zero weights never drawn, drawn weights set aside without
// replacement.
func multinomialRef(w []float64, u []float64, rows, n, samples int, replacement bool) []float64 {
	out := make([]float64, rows*samples)
	for r := range rows {
		row := append([]float64(nil), w[r*n:(r+1)*n]...)
		for d := range samples {
			total := 0.0
			for _, x := range row {
				total += x
			}
			target, acc, pick := u[r*samples+d]*total, 0.0, -1
			for j, x := range row {
				if x <= 0 {
					continue
				}
				pick, acc = j, acc+x
				if target < acc {
					break
				}
			}
			out[r*samples+d] = float64(pick)
			if !replacement {
				row[pick] = 0
			}
		}
	}
	return out
}

// checkMultinomial: draws with and without replacement from rows with zero weights, short and
// long, given the uniform draws.
func checkMultinomial(s *suite) {
	for _, dt := range floats {
		for _, c := range []struct{ rows, n, samples int }{{3, 6, 4}, {2, 1031, 3}} {
			w := s.uniform(c.rows*c.n, 0, 1)
			for r := range c.rows {
				w[r*c.n+1] = 0
			}
			for i := range w {
				w[i] = round(dt, w[i])
			}
			probs := s.put(dt, w)
			u, uv := s.rand(backend.F64, c.rows*c.samples, 0, 1)
			for _, repl := range []bool{true, false} {
				out, _ := s.poison(backend.I64, c.rows*c.samples)
				s.be.Multinomial(out, probs, u, c.rows, c.n, c.samples, repl)
				s.expect(fmt.Sprintf("Multinomial %s [%d %d] %d samples, replacement %v", dt, c.rows, c.n, c.samples, repl),
					out, multinomialRef(w, uv, c.rows, c.n, c.samples, repl), 0)
			}
		}
	}
}
