package decoding

import "github.com/goaccel/goaccel/tensors"

// Positions returns the default position ids of t tokens after past cached ones, past … past+t−1,
// as an int64 [1, t] tensor on d (transformers' arange(t) + past_key_values.get_seq_length()).
func Positions(t, past int, d tensors.Device) *tensors.Tensor {
	pos := make([]int64, t)
	for i := range pos {
		pos[i] = int64(past + i)
	}
	return tensors.FromInt64(pos, 1, t).To(d)
}
