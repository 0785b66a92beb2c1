package nn

import (
	"math"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

func TestClipGradNormScalesOnlyAboveTheLimit(t *testing.T) {
	a := tensors.Zeros(2).SetRequiresGrad(true)
	b := tensors.Zeros(1).SetRequiresGrad(true)
	c := tensors.Zeros(1).SetRequiresGrad(true) // no gradient
	cases := []struct {
		max      float64
		wantNorm float64
		wantA0   float64
	}{
		{10, 5, 3},                     // norm 5 ≤ 10: unchanged
		{1, 5, 3 * 1 / (5 + 1e-6)},     // scaled to norm 1
		{2.5, 5, 3 * 2.5 / (5 + 1e-6)}, // scaled to norm 2.5
	}
	for _, tc := range cases {
		a.SetGrad(tensors.New([]float32{3, 0}, 2))
		b.SetGrad(tensors.New([]float32{4}, 1))
		norm := ClipGradNorm([]*tensors.Tensor{a, b, c}, tc.max)
		if math.Abs(norm-tc.wantNorm) > 1e-6 {
			t.Errorf("max %v: norm %v, want %v", tc.max, norm, tc.wantNorm)
		}
		if got := float64(a.Grad().Float32s()[0]); math.Abs(got-tc.wantA0) > 1e-6 {
			t.Errorf("max %v: grad %v, want %v", tc.max, got, tc.wantA0)
		}
	}
}
