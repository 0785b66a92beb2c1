package tensors

import (
	"math"
	"slices"
	"testing"
)

func TestForwardValues(t *testing.T) {
	x := New([]float32{1, 5, 3, 4, 2, 6}, 2, 3)
	cases := []struct {
		name  string
		got   *Tensor
		shape []int
		want  []float32
	}{
		{"Eq-broadcast", x.Eq(New([]float32{1, 2, 3}, 3)), []int{2, 3}, []float32{1, 0, 1, 0, 1, 0}},
		{"Gt-scalar", x.Gt(Scalar(3)), []int{2, 3}, []float32{0, 1, 0, 1, 0, 1}},
		{"Le", x.Le(Scalar(3)), []int{2, 3}, []float32{1, 0, 1, 0, 1, 0}},
		{"Ne-int64", FromInt64([]int64{1, 2}, 2).Ne(FromInt64([]int64{1, 3}, 2)), []int{2}, []float32{0, 1}},
		{"Eq-int64-vs-float", FromInt64([]int64{1, 2}, 2).Eq(New([]float32{1, 2.5}, 2)), []int{2}, []float32{1, 0}},
		{"Lt-Ge", x.Lt(Scalar(3)).Add(x.Ge(Scalar(3))), []int{2, 3}, []float32{1, 1, 1, 1, 1, 1}},
		{"ArgMax-as-float", x.ArgMax(1, false).AsType(Float32), []int{2}, []float32{1, 2}},
		{"ArgMax-keepdim", x.ArgMax(0, true).AsType(Float32), []int{1, 3}, []float32{1, 0, 1}},
		{"MaxDim", x.MaxDim(1, false), []int{2}, []float32{5, 6}},
		{"MinDim", x.MinDim(0, false), []int{3}, []float32{1, 2, 3}},
		{"SumDims-0", x.SumDims(false, 0), []int{3}, []float32{5, 7, 9}},
		{"MeanDims-keep", x.MeanDims(true, 1), []int{2, 1}, []float32{3, 4}},
		{"Var-biased", x.Var(false, false, 1), []int{2}, []float32{8.0 / 3, 8.0 / 3}},
		{"Where-int-mask", Where(FromInt64([]int64{1, 0, 0}, 3), x, Scalar(-1)), []int{2, 3}, []float32{1, -1, -1, 4, -1, -1}},
		{"MaskedFill-bool-like", x.MaskedFill(x.Gt(Scalar(4)), 0), []int{2, 3}, []float32{1, 0, 3, 4, 2, 0}},
		{"Clamp", x.Clamp(2, 4), []int{2, 3}, []float32{2, 4, 3, 4, 2, 4}},
		{"Squeeze-dim", Zeros(1, 2, 1).Squeeze(0), []int{2, 1}, []float32{0, 0}},
		{"Flatten-all", Zeros(2, 3, 4).Flatten(0, -1), []int{24}, make([]float32, 24)},
		{"Cat-dim0", Cat([]*Tensor{x, x.Slice(0, 0, 1)}, 0), []int{3, 3}, []float32{1, 5, 3, 4, 2, 6, 1, 5, 3}},
		{"Stack-last", Stack([]*Tensor{Ones(2), Zeros(2)}, -1), []int{2, 2}, []float32{1, 0, 1, 0}},
		{"Arange-step", Arange(1, 2, 0.25), []int{4}, []float32{1, 1.25, 1.5, 1.75}},
		{"Arange-negative", Arange(3, 0, -1), []int{3}, []float32{3, 2, 1}},
		{"Full", Full(2.5, 2), []int{2}, []float32{2.5, 2.5}},
		{"Pow-int-tensor", FromInt64([]int64{2, 3}, 2).Pow(2), []int{2}, []float32{4, 9}},
		{"Div-int-true-division", FromInt64([]int64{1}, 1).Div(FromInt64([]int64{2}, 1)), []int{1}, []float32{0.5}},
		{"MatMul-batched", Ones(3, 2, 4).MatMul(Ones(4, 5)), []int{3, 2, 5}, slices.Repeat([]float32{4}, 30)},
		{"Sum-empty", Zeros(0, 3).SumDims(false, 0), []int{3}, []float32{0, 0, 0}},
		{"Embedding", Embedding(Arange(0, 6, 1).Reshape(3, 2), FromInt64([]int64{2, 0}, 2)), []int{2, 2}, []float32{4, 5, 0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !slices.Equal(c.got.Shape(), c.shape) {
				t.Fatalf("shape %v, want %v", c.got.Shape(), c.shape)
			}
			got := c.got.Float32s()
			for i := range c.want {
				if math.Abs(float64(got[i]-c.want[i])) > 1e-6 {
					t.Fatalf("values %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestMaxSharesGradientAmongTies(t *testing.T) {
	x := New([]float32{3, 1, 3}, 3).SetRequiresGrad(true)
	x.Max().Backward()
	if got := x.Grad().Float32s(); !slices.Equal(got, []float32{0.5, 0, 0.5}) {
		t.Fatalf("grad %v, want [0.5 0 0.5] (PyTorch splits evenly)", got)
	}
}

func TestCrossEntropyAllIgnoredMeanIsNaN(t *testing.T) {
	l := CrossEntropy(Zeros(2, 3), FromInt64([]int64{-100, -100}, 2))
	if !math.IsNaN(l.Item()) {
		t.Fatalf("loss %v, want NaN as PyTorch (0/0)", l.Item())
	}
}

func TestStringFormatsLikePyTorch(t *testing.T) {
	cases := []struct {
		name string
		t    *Tensor
		want string
	}{
		{"scalar", Scalar(2), "tensor(2.)"},
		{"fraction", New([]float32{0.5, -1.25}, 2), "tensor([ 0.5000, -1.2500])"},
		{"int64", FromInt64([]int64{1, -20}, 2), "tensor([  1, -20])"},
		{"float64", NewFloat64([]float64{1}, 1), "tensor([1.], dtype=torch.float64)"},
		{"bfloat16", Ones(1).AsType(BFloat16), "tensor([1.], dtype=torch.bfloat16)"},
		{"requires-grad", Ones(1).SetRequiresGrad(true), "tensor([1.], requires_grad=True)"},
		{"3d", Zeros(2, 1, 2), "tensor([[[0., 0.]],\n\n        [[0., 0.]]])"},
		{"nan-inf", New([]float32{float32(math.NaN()), float32(math.Inf(1)), 1}, 3), "tensor([nan, inf, 1.])"},
		{"sci", New([]float32{1e-6, 1}, 2), "tensor([1.0000e-06, 1.0000e+00])"},
		{"sci-ratio", New([]float32{123456.5, 1.5}, 2), "tensor([1.2346e+05, 1.5000e+00])"},
		{"summarized-2d", Zeros(2, 550), "tensor([[0., 0., 0.,  ..., 0., 0., 0.],\n        [0., 0., 0.,  ..., 0., 0., 0.]])"},
		{"summarized", Zeros(2000), "tensor([0., 0., 0.,  ..., 0., 0., 0.])"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.t.String(); got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestSumOverLeadingDimMatchesFloat64 covers the vectorised column sums (rows longer than 8
// with a scalar tail) used for bias gradients.
func TestSumOverLeadingDimMatchesFloat64(t *testing.T) {
	x := NewGenerator(8).Randn(5, 21)
	got := x.SumDims(false, 0).Float32s()
	want := x.AsType(Float64).SumDims(false, 0).Float64s()
	for i := range want {
		if math.Abs(float64(got[i])-want[i]) > 1e-5 {
			t.Fatalf("column %d: %v, want %v", i, got[i], want[i])
		}
	}
}
