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

func TestClipGradValueClampsEachGradient(t *testing.T) {
	inf, nan := float32(math.Inf(1)), float32(math.NaN())
	a := tensors.Zeros(6).SetRequiresGrad(true)
	b := tensors.Zeros(2, 2).SetRequiresGrad(true)
	c := tensors.Zeros(1).SetRequiresGrad(true) // no gradient: skipped
	a.SetGrad(tensors.New([]float32{-3, -0.5, 0.5, 0.75, inf, nan}, 6))
	b.SetGrad(tensors.New([]float32{2, -2, 0.1, -0.75}, 2, 2).T()) // a non-contiguous gradient
	ClipGradValue([]*tensors.Tensor{a, b, c}, 0.75)
	got := a.Grad().Float32s()
	want := []float32{-0.75, -0.5, 0.5, 0.75, 0.75}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("a.grad[%d] = %v, want %v", i, got[i], w)
		}
	}
	if !math.IsNaN(float64(got[5])) {
		t.Errorf("a NaN gradient became %v; torch.clamp keeps NaN", got[5])
	}
	if g := b.Grad().Float32s(); g[0] != 0.75 || g[1] != 0.1 || g[2] != -0.75 || g[3] != -0.75 {
		t.Errorf("b.grad = %v, want [0.75 0.1 -0.75 -0.75]", g)
	}
	if c.Grad() != nil {
		t.Error("a parameter without gradient got one")
	}
	for _, bad := range []float64{-1, math.NaN()} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("clipValue %v: no panic", bad)
				}
			}()
			ClipGradValue([]*tensors.Tensor{a}, bad)
		}()
	}
}
