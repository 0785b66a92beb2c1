package decoding

import (
	"slices"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// Embed looks up ids [B, T] in e as torch's nn.Embedding with padding_idx does: the padding
// token's row passes no gradient back (its embedding stays as it is when the others train).
// Where a gradient is recorded and ids hold the padding id, the looked-up rows x become
// x·keep + e[pad]·(1−keep), keep being 0 at the padding positions: the same values (exactly)
// with the padding positions' gradient cut. pad < 0 is no padding index.
func Embed(e *nn.Embedding, ids *tensors.Tensor, pad int) *tensors.Tensor {
	x := e.Forward(ids)
	if pad < 0 || !tensors.IsGradEnabled() || !e.Weight.RequiresGrad() {
		return x
	}
	v := ids.Int64s()
	if !slices.Contains(v, int64(pad)) {
		return x
	}
	keep, drop := make([]float32, len(v)), make([]float32, len(v))
	for i, id := range v {
		if id == int64(pad) {
			drop[i] = 1
		} else {
			keep[i] = 1
		}
	}
	shape := append(ids.Shape(), 1)
	k := tensors.New(keep, shape...).To(ids.Device())
	d := tensors.New(drop, shape...).To(ids.Device())
	row := e.Weight.Detach().Slice(0, pad, pad+1).Reshape(e.Weight.Size(1))
	kept := x.Mul(k)
	x.Release()
	padded := d.Mul(row)
	out := kept.Add(padded)
	for _, t := range []*tensors.Tensor{k, d, kept, padded} {
		t.Release()
	}
	return out
}
