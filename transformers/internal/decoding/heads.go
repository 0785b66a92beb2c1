package decoding

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// LastTokens returns the position of each row's last token that is not padding, as
// transformers' sequence classifiers of decoders find it: the rightmost id not equal to pad (so
// left and right padding both work; a row of padding only gives 0). Without a pad id only a
// batch of one row can be pooled (its last position).
func LastTokens(ids *tensors.Tensor, pad *int) ([]int64, error) {
	b, t := ids.Size(0), ids.Size(1)
	last := make([]int64, b)
	if pad == nil {
		if b != 1 {
			return nil, fmt.Errorf("the configuration has no pad_token_id, which a batch of %d rows needs to find each row's last token: set it (e.g. to the tokenizer's pad or end-of-sequence id)", b)
		}
		last[0] = int64(t - 1)
		return last, nil
	}
	v := ids.Int64s()
	for r := range b {
		for j := range t {
			if v[r*t+j] != int64(*pad) {
				last[r] = int64(j)
			}
		}
	}
	return last, nil
}

// PoolLast returns the rows of h [B, T, C] at each row's position last[b]: [B, C].
func PoolLast(h *tensors.Tensor, last []int64) *tensors.Tensor {
	b, t, c := h.Size(0), h.Size(1), h.Size(2)
	idx := make([]int64, b)
	for r, j := range last {
		idx[r] = int64(r*t) + j
	}
	flat := h.Reshape(b*t, c)
	sel := tensors.FromInt64(idx, b).To(h.Device())
	out := flat.IndexSelect(0, sel)
	sel.Release()
	return out
}

// KeepLast returns the last n positions of h [B, T, C] (a view), or h for n = 0 or n ≥ T.
func KeepLast(h *tensors.Tensor, n int) *tensors.Tensor {
	t := h.Size(1)
	if n <= 0 || n >= t {
		return h
	}
	return h.Slice(1, t-n, t)
}

// CausalLMLoss is the loss of a causal language model: the mean cross entropy of logits
// [B, T, V] at position t against labels [B, T] at position t+1 (the labels are the input ids,
// shifted inside, as transformers' ForCausalLMLoss does), -100 ignored.
func CausalLMLoss(logits, labels *tensors.Tensor) (*tensors.Tensor, error) {
	b, t, v := logits.Size(0), logits.Size(1), logits.Size(2)
	if labels.DType() != tensors.Int64 || labels.Dim() != 2 || labels.Size(0) != b || labels.Size(1) != t {
		return nil, fmt.Errorf("language modelling labels must be int64 token ids [%d, %d] (the input ids, -100 where no loss is wanted), have %s %v", b, t, labels.DType(), labels.Shape())
	}
	l := labels.Int64s()
	shifted := make([]int64, len(l))
	for r := range b {
		for j := range t {
			shifted[r*t+j] = -100
			if j+1 < t {
				shifted[r*t+j] = l[r*t+j+1]
			}
		}
	}
	target := tensors.FromInt64(shifted, b*t).To(logits.Device())
	loss := tensors.CrossEntropyWith(logits.Reshape(b*t, v), target, tensors.DefaultCrossEntropyOptions())
	target.Release()
	return loss, nil
}
