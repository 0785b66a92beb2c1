package backend

import "math"

// AttentionParams describe one scaled dot-product attention: Batch×Heads independent problems
// of Tq queries and Tk keys, with head size D (queries and keys) and Dv (values).
//
// The operands and results are 4-D strided views [Batch, Heads, T, D] whose last stride is 1,
// so the heads can be read and written in place inside [Batch, T, Heads·D] projections.
type AttentionParams struct {
	Batch, Heads, Tq, Tk, D, Dv int
	// Scale multiplies the scores (usually 1/√D).
	Scale float64
	// Causal keeps key j for query i only when j ≤ i (torch.tril(ones(Tq, Tk)), top-left aligned).
	Causal bool
	// Dropout zeroes each attention weight with this probability and scales the others by
	// 1/(1−Dropout). Whether weight (b, h, i, j) is kept is DropoutKeep(Seed, index, Dropout)
	// with index ((b·Heads + h)·Tq + i)·Tk + j, on every device, so the backward pass and any
	// device recompute the same mask instead of storing it.
	Dropout float64
	Seed    uint64
	// KeyMask, when not nil, is a contiguous [Batch, Tk] int64 buffer on the operands' device:
	// key j of batch row b is visible to every query of that row only where KeyMask[b·Tk + j] is
	// non-zero (transformers' attention_mask: right padding, left padding or any pattern). It
	// combines with Causal. One mask covers both kinds of padding; kernels skip the key blocks
	// past a row's last visible key, so right padding costs what valid lengths would.
	//
	// A query row that sees no key at all outputs zeros and passes no gradient back, as
	// PyTorch's scaled_dot_product_attention (and so transformers' default "sdpa" attention)
	// does; its log-sum-exp is +Inf, which makes every weight the backward pass recomputes 0.
	KeyMask *Buffer
}

// Rows is the number of query rows, Batch·Heads·Tq (the length of the log-sum-exp buffer).
func (p AttentionParams) Rows() int { return p.Batch * p.Heads * p.Tq }

// Visible reports whether query i sees key j.
func (p AttentionParams) Visible(i, j int) bool { return !p.Causal || j <= i }

// KeepScale is 1/(1−Dropout), the factor kept weights are scaled by.
func (p AttentionParams) KeepScale() float64 {
	if p.Dropout <= 0 {
		return 1
	}
	return 1 / (1 - p.Dropout)
}

// DropoutUniform is the counter-based uniform draw in [0, 1) of element index under seed: a
// SplitMix64 finaliser of seed + (index+1)·φ, whose top 24 bits make the float32. CUDA kernels
// compute the same function.
func DropoutUniform(seed, index uint64) float32 {
	z := seed + (index+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	z ^= z >> 31
	return float32(z>>40) * (1.0 / (1 << 24))
}

// DropoutKeep reports whether element index survives dropout with probability p.
func DropoutKeep(seed, index uint64, p float64) bool {
	return p <= 0 || DropoutUniform(seed, index) >= float32(p)
}

// AttentionOps is fused scaled dot-product attention: softmax(Scale·q·kᵀ, masked)·v computed
// block by block with a running (online) softmax, so no [Tq, Tk] matrix is ever stored; the
// backward pass recomputes the weights from q, k and the log-sum-exp of each row.
type AttentionOps interface {
	// Attention writes out [Batch, Heads, Tq, Dv] and lse, the contiguous per-row log-sum-exp of
	// the scaled, masked scores (Rows() elements of q's type). With no keys (Tk 0, which package
	// tensors refuses) it reads none; what it writes is the device's.
	Attention(out Strided, lse *Buffer, q, k, v Strided, p AttentionParams)
	// AttentionGrad overwrites dq, dk and dv with the gradients given the upstream gradient
	// gout of out, and Attention's out and lse.
	AttentionGrad(dq, dk, dv Strided, gout, out Strided, lse *Buffer, q, k, v Strided, p AttentionParams)
}

// SamplingOps pick elements for text generation, on float32 or float64 data.
type SamplingOps interface {
	// TopK writes the k largest (smallest when !largest) elements along the middle axis of src
	// [outer, n, inner] into vals [outer, k, inner], sorted (descending for largest), and their
	// int64 positions into idx; equal values keep the lower position first; NaN counts as the
	// largest value. k may be 0.
	TopK(vals, idx, src *Buffer, outer, n, inner, k int, largest bool)
	// Multinomial draws samples int64 indices per row of the non-negative weights probs
	// [rows, n] into dst [rows, samples], using the float64 uniform draws u [rows, samples]:
	// index j is drawn with probability weight_j / Σ weights. Without replacement a drawn index's
	// weight is set aside for the row's later draws. A row whose weights sum to zero (or
	// contain a negative, NaN or inf) panics.
	Multinomial(dst, probs, u *Buffer, rows, n, samples int, replacement bool)
}

// pick is index j with u·Σw falling in [Σ_{i<j} w_i, Σ_{i≤j} w_i), skipping zero weights: the
// inverse CDF that CPU, CUDA and the fallback all use, in float64; total is Σw.
func pick(w []float64, u, total float64) int {
	target := u * total
	acc, last := 0.0, -1
	for j, x := range w {
		if x <= 0 {
			continue
		}
		last = j
		acc += x
		if target < acc {
			return j
		}
	}
	return last
}

// MultinomialRow draws samples indices from the weights w (modified when !replacement) with the
// uniform draws u, as SamplingOps.Multinomial describes; host devices and the composed fallback
// share it.
func MultinomialRow(dst []int64, w []float64, u []float64, replacement bool) {
	for _, x := range w {
		if x < 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			panic("tensors: Multinomial: weights must be finite and non-negative")
		}
	}
	for s := range dst {
		total := 0.0
		for _, x := range w {
			total += x
		}
		if total <= 0 {
			panic("tensors: Multinomial: a row's weights sum to zero (or it has fewer non-zero weights than samples drawn without replacement)")
		}
		j := pick(w, u[s], total)
		dst[s] = int64(j)
		if !replacement {
			w[j] = 0
		}
	}
}

// TopKRow writes the positions of the k largest (or smallest) of row into idx, in order; equal
// values keep the lower position first, NaN is the largest value. Shared like MultinomialRow.
func TopKRow(idx []int64, row []float64, largest bool) {
	// before reports whether a ranks ahead of b.
	before := func(a, b int) bool {
		x, y := row[a], row[b]
		xn, yn := math.IsNaN(x), math.IsNaN(y)
		switch {
		case xn || yn:
			if xn && yn {
				return a < b
			}
			return xn == largest
		case x == y:
			return a < b
		case largest:
			return x > y
		}
		return x < y
	}
	// Insertion into a sorted prefix of k: n·k comparisons, fine for the k of sampling.
	k := len(idx)
	if k == 0 {
		return
	}
	m := 0
	for j := range row {
		if m == k && !before(j, int(idx[k-1])) {
			continue
		}
		p := min(m, k-1)
		if m < k {
			m++
		}
		for p > 0 && before(j, int(idx[p-1])) {
			idx[p] = idx[p-1]
			p--
		}
		idx[p] = int64(j)
	}
}
