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
// a group taking the place of a group's queries.
func Attention(q, k, v *tensors.Tensor, opts AttentionOptions) (*tensors.Tensor, error) {
	b, tq, h, d := q.Size(0), q.Size(1), q.Size(2), q.Size(3)
	tk, hkv := k.Size(1), k.Size(2)
	if hkv < 1 || h%hkv != 0 {
		return nil, fmt.Errorf("attention: %d query heads are not a multiple of %d key/value heads", h, hkv)
	}
	sdpa := tensors.AttentionOptions{KeyMask: opts.KeyMask, Scale: opts.Scale, Dropout: opts.Dropout}
	switch {
	case tq == tk:
		if opts.Window > 0 && tk > opts.Window {
			return nil, fmt.Errorf("a sequence of %d tokens is longer than the sliding window %d (sliding_window): goaccel attends within the window only when generating with the KV cache; split the input into pieces of at most %d tokens", tk, opts.Window, opts.Window)
		}
		kr, vr := repeatHeads(k, h/hkv), repeatHeads(v, h/hkv)
		sdpa.Causal = true
		out := tensors.ScaledDotProductAttention(q.Transpose(1, 2), kr.Transpose(1, 2), vr.Transpose(1, 2), sdpa)
		if kr != k {
			kr.Release()
			vr.Release()
		}
		// out is [B, H, Tq, D] laid out as [B, Tq, H, D]: merging the heads is a view.
		return out.Transpose(1, 2).Reshape(b, tq, h*d), nil
	case tq == 1:
		if opts.Window > 0 && tk > opts.Window {
			m := windowMask(opts.KeyMask, b, tk, opts.Window, k.Device())
			sdpa.KeyMask = m
			defer m.Release()
		}
		g := h / hkv
		// The g query heads of a group are the group's g queries: [B, Hkv, g, D], no copy.
		qg := q.Reshape(b, hkv, g, d)
		out := tensors.ScaledDotProductAttention(qg, k.Transpose(1, 2), v.Transpose(1, 2), sdpa)
		// out is [B, Hkv, g, D] laid out as [B, g, Hkv, D]; the heads go back in order h = kv·g + i.
		return out.Reshape(b, 1, h*d), nil
	}
	return nil, fmt.Errorf("attention: %d queries over %d keys: a decoder attends over a cache one token at a time", tq, tk)
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

// windowMask is the key mask of the last query of tk keys under a sliding window: keys
// j ≤ tk−1−window hidden, the others as mask says (nil: visible).
func windowMask(mask *tensors.Tensor, b, tk, window int, dev tensors.Device) *tensors.Tensor {
	keep := make([]int64, b*tk)
	var m []int64
	if mask != nil {
		m = mask.AsType(tensors.Int64).Int64s()
	}
	for r := range b {
		for j := tk - window; j < tk; j++ {
			keep[r*tk+j] = 1
			if m != nil {
				keep[r*tk+j] = m[r*tk+j]
			}
		}
	}
	return tensors.FromInt64(keep, b, tk).To(dev)
}
