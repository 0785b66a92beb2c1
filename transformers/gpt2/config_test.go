package gpt2

import (
	"math"
	"testing"
)

// TestAttentionScaleFollowsTheConfig: GPT2Attention's scaling, head_dim^-0.5 unless
// scale_attn_weights is false, divided by the layer's number (from 1) with
// scale_attn_by_inverse_layer_idx; 0 asks the kernel for its default 1/√D.
func TestAttentionScaleFollowsTheConfig(t *testing.T) {
	c := NewConfig()
	c.NEmbd, c.NHead = 64, 4 // head size 16
	for _, x := range []struct {
		weights, inverse bool
		layer            int
		want             float64
	}{
		{true, false, 3, 0},
		{true, true, 0, 0.25},
		{true, true, 3, 0.25 / 4},
		{false, false, 3, 1},
		{false, true, 1, 0.5},
	} {
		c.ScaleAttnWeights, c.ScaleAttnByInverseLayerIdx = x.weights, x.inverse
		if got := c.scale(x.layer); math.Abs(got-x.want) > 1e-15 {
			t.Errorf("scale_attn_weights %v, scale_attn_by_inverse_layer_idx %v, layer %d: scale %v, want %v", x.weights, x.inverse, x.layer, got, x.want)
		}
	}
}
