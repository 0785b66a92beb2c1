package decoding

import (
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// repeatedStep is the decoding step with the key/value heads repeated for every query head (a
// copy of the cache's keys and values per step, as transformers' repeat_kv), the alternative
// step's in-place reading of the grouped heads was measured against.
func repeatedStep(q, k, v *tensors.Tensor) *tensors.Tensor {
	b, h, d := q.Size(0), q.Size(2), q.Size(3)
	kr, vr := repeatHeads(k, h/k.Size(2)), repeatHeads(v, h/k.Size(2))
	out := tensors.ScaledDotProductAttention(q.Transpose(1, 2), kr.Transpose(1, 2), vr.Transpose(1, 2), tensors.AttentionOptions{})
	kr.Release()
	vr.Release()
	return out.Transpose(1, 2).Reshape(b, 1, h*d)
}

// BenchmarkGroupedDecodeStep is the attention of one decoding step of Llama 3 8B's shape (32
// query heads over 8 key/value heads of 128) over a cache of 1024 tokens: the grouped heads read
// in place (Attention) against repeated into a copy first.
func BenchmarkGroupedDecodeStep(b *testing.B) {
	g := tensors.NewGenerator(0)
	q := g.Randn(1, 1, 32, 128)
	k, v := g.Randn(1, 1024, 8, 128), g.Randn(1, 1024, 8, 128)
	for _, c := range []struct {
		name string
		step func() *tensors.Tensor
	}{
		{"in-place", func() *tensors.Tensor { y, _ := Attention(q, k, v, AttentionOptions{}); return y }},
		{"repeated", func() *tensors.Tensor { return repeatedStep(q, k, v) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			tensors.NoGrad(func() {
				for range b.N {
					y := c.step()
					y.Float32s()
					y.Release()
				}
			})
		})
	}
}

// TestGroupedStepReadsTheHeadsItShares: the in-place grouped decoding step gives what repeating
// the key/value heads gives.
func TestGroupedStepReadsTheHeadsItShares(t *testing.T) {
	g := tensors.NewGenerator(1)
	q := g.Randn(2, 1, 6, 8)
	k, v := g.Randn(2, 5, 2, 8), g.Randn(2, 5, 2, 8)
	got, err := Attention(q, k, v, AttentionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := repeatedStep(q, k, v)
	a, w := got.Float32s(), want.Float32s()
	for i := range w {
		if d := a[i] - w[i]; d > 1e-6 || d < -1e-6 {
			t.Fatalf("element %d: %v, repeating the heads gives %v", i, a[i], w[i])
		}
	}
}
