package tensors

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// TopK returns the k largest elements along dim (the k smallest when largest is false), sorted
// (largest first, or smallest first), and their int64 positions, as torch.topk. Equal values keep
// the lower position first; NaN counts as larger than any number. The values are differentiable:
// the gradient flows back to the chosen positions.
func (t *Tensor) TopK(k, dim int, largest bool) (values, indices *Tensor) {
	d := t.normDim("TopK", dim)
	if k < 0 || k > t.shape[d] {
		panic(fmt.Sprintf("tensors: TopK: k = %d outside [0, %d] (size of dimension %d of %v)", k, t.shape[d], dim, t.shape))
	}
	x := t.dense()
	outer, n, inner := split3(x.shape, d)
	shape := slices.Clone(x.shape)
	shape[d] = k
	values, indices = empty(x.dtype, x.dev, shape...), empty(Int64, x.dev, shape...)
	if values.Numel() > 0 {
		x.be().TopK(values.buf(), indices.buf(), x.buf(), outer, n, inner, k, largest)
	}
	releaseIfNot(x, t)
	record(values, "TopK", []*Tensor{t}, func(g *Tensor) []*Tensor {
		gx := zeros(g.dtype, g.dev, t.shape...)
		if k == 0 { // nothing was chosen: no gradient flows back
			return []*Tensor{gx}
		}
		gc := g.contig()
		g.be().ScatterAdd(gx.buf(), gc.buf(), indices.buf(), outer, n, k, inner)
		releaseIfNot(gc, g)
		return []*Tensor{gx}
	}, indices)
	return values, indices
}

// Multinomial draws numSamples int64 indices from each row of the non-negative weights probs
// ([N] or [rows, N]; they need not sum to one), as torch.multinomial: index j with probability
// probs[j]/Σ probs. Without replacement an index is drawn at most once per row (numSamples ≤ the
// row's non-zero weights). The draws come from gen (nil: the process-wide generator), so a seed
// gives the same samples on every device. The result is [numSamples] or [rows, numSamples].
func Multinomial(probs *Tensor, numSamples int, replacement bool, gen *Generator) *Tensor {
	if probs.Dim() != 1 && probs.Dim() != 2 {
		panic(fmt.Sprintf("tensors: Multinomial: probs must be [N] or [rows, N], have %v", probs.shape))
	}
	n := probs.shape[probs.Dim()-1]
	rows := probs.Numel() / max(n, 1)
	if n == 0 || numSamples < 1 || (!replacement && numSamples > n) {
		panic(fmt.Sprintf("tensors: Multinomial: cannot draw %d samples from %d categories (replacement %v)", numSamples, n, replacement))
	}
	if gen == nil {
		gen = defaultGen
	}
	x := probs.dense()
	h := backend.NewHost(backend.F64, rows*numSamples)
	gen.mu.Lock()
	for i := range h.F64 {
		h.F64[i] = gen.rng.Float64()
	}
	gen.mu.Unlock()
	u := (&Tensor{st: newStorage(cpuBackend, h), dev: CPU, dtype: Float64, shape: []int{len(h.F64)}, strides: []int{1}}).To(x.dev)
	shape := []int{rows, numSamples}
	if probs.Dim() == 1 {
		shape = shape[1:]
	}
	out := empty(Int64, x.dev, shape...)
	x.be().Multinomial(out.buf(), x.buf(), u.buf(), rows, n, numSamples, replacement)
	u.release()
	releaseIfNot(x, probs)
	return out
}

// Tril returns the lower triangle of the last two dimensions: elements with column − row ≤
// diagonal are kept, the others are 0 (torch.tril). Tril(0) of Ones(T, T) is the causal mask.
func (t *Tensor) Tril(diagonal int) *Tensor { return t.triangle("Tril", diagonal, true) }

// Triu returns the upper triangle: elements with column − row ≥ diagonal are kept (torch.triu).
func (t *Tensor) Triu(diagonal int) *Tensor { return t.triangle("Triu", diagonal, false) }

func (t *Tensor) triangle(op string, diagonal int, lower bool) *Tensor {
	if t.Dim() < 2 {
		panic(fmt.Sprintf("tensors: %s: need at least 2 dimensions, have %v", op, t.shape))
	}
	r, c := t.shape[t.Dim()-2], t.shape[t.Dim()-1]
	m := make([]float32, r*c)
	for i := range r {
		for j := range c {
			if in := j-i <= diagonal; (lower && in) || (!lower && j-i >= diagonal) {
				m[i*c+j] = 1
			}
		}
	}
	mask := New(m, r, c)
	mask = handOver(mask, mask.To(t.dev))
	zero := zeros(t.dtype, t.dev)
	x := t.computable()
	out := whereRaw(op, mask, x, zero)
	zero.release()
	releaseIfNot(x, t)
	if out.dtype != t.dtype {
		out = handOver(out, out.convertTo(t.dtype))
	}
	record(out, op, []*Tensor{t}, func(g *Tensor) []*Tensor {
		z := zeros(g.dtype, g.dev)
		gx := whereRaw(op, mask, g, z)
		z.release()
		return []*Tensor{gx}
	}, mask)
	mask.release()
	return out
}

// Split returns consecutive views of size along dim (the last one may be shorter), as
// torch.split: qkv.Split(C, 2) separates a fused projection's queries, keys and values.
func (t *Tensor) Split(size, dim int) []*Tensor {
	d := t.normDim("Split", dim)
	if size < 1 {
		panic(fmt.Sprintf("tensors: Split: size %d must be positive", size))
	}
	var out []*Tensor
	for s := 0; s < t.shape[d]; s += size {
		out = append(out, t.Slice(d, s, s+size))
	}
	return out
}

// Chunk splits dim into n views of equal size (the last may be shorter), as torch.chunk.
func (t *Tensor) Chunk(n, dim int) []*Tensor {
	d := t.normDim("Chunk", dim)
	if n < 1 {
		panic(fmt.Sprintf("tensors: Chunk: %d chunks", n))
	}
	return t.Split(max(1, (t.shape[d]+n-1)/n), dim)
}
