package decoding

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// AttentionOptions configure Attention.
type AttentionOptions struct {
	// KeyMask is the attention mask [B, Tk] over every key (cached and new): 1 for a token,
	// 0 for padding; nil attends to every key.
	KeyMask *tensors.Tensor
	// Scale multiplies the scores; 0 means 1/√D.
	Scale float64
	// Dropout is the attention weights' dropout probability (0 in evaluation).
	Dropout float64
	// Window, when positive, is a sliding window (Mistral's sliding_window): the query at
	// cache index i sees key j only when i − Window < j ≤ i.
	Window int
}

// Attention is causal self-attention of queries q [B, Tq, H, D] over keys and values k, v
// [B, Tk, Hkv, D] (projection layout; views are read in place), with H a multiple of Hkv
// (grouped-query attention: query head h reads key/value head h / (H/Hkv)). The result is
// [B, Tq, H·D].
//
// Two shapes are possible, as a decoder runs them: a prompt (Tq = Tk, no cache or an empty one:
// the causal mask of the fused kernel), and a decoding step over a cache (Tq = 1: the query
// sees every key the mask lets it). A prompt with grouped heads repeats each key/value head
// (a copy, as transformers' repeat_kv); a decoding step reads them in place, the query heads of
// a group taking the place of a group's queries. Under a sliding window a step reads the last
// Window keys, and a prompt longer than the window is attended one query at a time over its
// window (exact, and slower than one fused call).
func Attention(q, k, v *tensors.Tensor, opts AttentionOptions) (*tensors.Tensor, error) {
	b, tq, h, d := q.Size(0), q.Size(1), q.Size(2), q.Size(3)
	tk, hkv := k.Size(1), k.Size(2)
	if hkv < 1 || h%hkv != 0 {
		return nil, fmt.Errorf("attention: %d query heads are not a multiple of %d key/value heads", h, hkv)
	}
	w := opts.Window
	switch {
	case tq == 1 && w > 0 && tk > w:
		return step(q, k.Slice(1, tk-w, tk), v.Slice(1, tk-w, tk), sliceMask(opts.KeyMask, tk-w, tk), opts), nil
	case tq == 1:
		return step(q, k, v, opts.KeyMask, opts), nil
	case tq == tk && w > 0 && tk > w:
		outs := make([]*tensors.Tensor, tq)
		for i := range tq {
			lo := max(0, i-w+1)
			outs[i] = step(q.Slice(1, i, i+1), k.Slice(1, lo, i+1), v.Slice(1, lo, i+1), sliceMask(opts.KeyMask, lo, i+1), opts)
		}
		out := tensors.Cat(outs, 1)
		for _, o := range outs {
			o.Release()
		}
		return out, nil
	case tq == tk:
		kr, vr := repeatHeads(k, h/hkv), repeatHeads(v, h/hkv)
		out := tensors.ScaledDotProductAttention(q.Transpose(1, 2), kr.Transpose(1, 2), vr.Transpose(1, 2),
			tensors.AttentionOptions{Causal: true, KeyMask: opts.KeyMask, Scale: opts.Scale, Dropout: opts.Dropout})
		if kr != k {
			kr.Release()
			vr.Release()
		}
		// out is [B, H, Tq, D] laid out as [B, Tq, H, D]: merging the heads is a view.
		return out.Transpose(1, 2).Reshape(b, tq, h*d), nil
	}
	return nil, fmt.Errorf("attention: %d queries over %d keys: a decoder attends over a cache one token at a time", tq, tk)
}

// step is the attention of one query per row q [B, 1, H, D] over every key of k, v
// [B, Tk, Hkv, D] that mask [B, Tk] (nil: all) lets it see: [B, 1, H·D].
func step(q, k, v, mask *tensors.Tensor, opts AttentionOptions) *tensors.Tensor {
	b, h, d, hkv := q.Size(0), q.Size(2), q.Size(3), k.Size(2)
	g := h / hkv
	// The g query heads of a group are the group's g queries: [B, Hkv, g, D], no copy.
	qg := q.Reshape(b, hkv, g, d)
	out := tensors.ScaledDotProductAttention(qg, k.Transpose(1, 2), v.Transpose(1, 2),
		tensors.AttentionOptions{KeyMask: mask, Scale: opts.Scale, Dropout: opts.Dropout})
	// out is [B, Hkv, g, D] laid out as [B, g, Hkv, D]; the heads go back in order h = kv·g + i.
	return out.Reshape(b, 1, h*d)
}

// sliceMask is keys lo … hi−1 of a mask [B, Tk] (nil for none).
func sliceMask(mask *tensors.Tensor, lo, hi int) *tensors.Tensor {
	if mask == nil {
		return nil
	}
	return mask.Slice(1, lo, hi)
}

// repeatHeads returns x [B, T, Hkv, D] with each head repeated n times in place
// ([B, T, Hkv·n, D], head kv·n + i a copy of head kv), or x itself for n = 1.
func repeatHeads(x *tensors.Tensor, n int) *tensors.Tensor {
	if n == 1 {
		return x
	}
	reps := make([]*tensors.Tensor, n)
	for i := range reps {
		reps[i] = x
	}
	s := tensors.Stack(reps, 3)
	return s.Reshape(x.Size(0), x.Size(1), x.Size(2)*n, x.Size(3))
}
