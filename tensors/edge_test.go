package tensors

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestEmptyInputsBehaveAsOnTheCPU runs the edge cases of the review of the GPU path on every
// device: empty axes of reductions and softmax, cross entropy over no rows, attention with no
// keys, dropout with p = 1 (attention refuses it) and top-k with k = 0 give what the CPU gives
// (and PyTorch: an empty softmax, a NaN mean, zeros), or the same error; and nothing they queue
// on a device fails later (the read back at the end of each device would report it).
func TestEmptyInputsBehaveAsOnTheCPU(t *testing.T) {
	for _, d := range testDevices {
		t.Run(d.String(), func(t *testing.T) {
			x := Zeros(3, 0).To(d).SetRequiresGrad(true)
			for _, log := range []bool{false, true} {
				y := x.Softmax(1)
				if log {
					y = x.LogSoftmax(1)
				}
				if !slices.Equal(y.Shape(), []int{3, 0}) {
					t.Fatalf("softmax (log %v) over an empty axis: shape %v, want [3 0]", log, y.Shape())
				}
				y.Sum().Backward()
				if g := x.Grad(); !slices.Equal(g.Shape(), []int{3, 0}) {
					t.Fatalf("its gradient: shape %v", g.Shape())
				}
				x.ZeroGrad()
			}
			wide := Zeros(2, 0, 300).To(d) // the empty axis between two others
			if got := fmt.Sprint(wide.Softmax(1).Shape(), wide.SumDims(false, 1).Float32s()[599], wide.MeanDims(false, 1).Float32s()[0]); got != "[2 0 300] 0 NaN" {
				t.Fatalf("softmax shape, sum and mean over an empty middle axis: %s, want [2 0 300] 0 NaN", got)
			}
			mustPanic(t, "reduction over empty dimension 1", func() { wide.MaxDim(1, false) })
			mustPanic(t, "reduction over empty dimension 1", func() { wide.ArgMax(1, false) })
			logits, target := Zeros(0, 5).To(d), FromInt64(nil, 0).To(d)
			if v := CrossEntropy(logits, target).Item(); !math.IsNaN(v) {
				t.Fatalf("mean cross entropy over no rows = %v, want NaN", v)
			}
			if v := CrossEntropyWith(logits, target, CrossEntropyOptions{IgnoreIndex: -100, Reduction: "sum"}).Item(); v != 0 {
				t.Fatalf("summed cross entropy over no rows = %v, want 0", v)
			}
			q, none := Randn(1, 2, 3, 4).To(d), Zeros(1, 2, 0, 4).To(d)
			mustPanic(t, "no keys", func() { ScaledDotProductAttention(q, none, none, AttentionOptions{}) })
			ones := Ones(2, 3).To(d).SetRequiresGrad(true)
			Dropout(ones, 1, true).Sum().Backward()
			if got := fmt.Sprint(Dropout(ones, 1, true).Float32s(), ones.Grad().Float32s()); got != "[0 0 0 0 0 0] [0 0 0 0 0 0]" {
				t.Fatalf("dropout with p = 1 and its gradient: %s, want zeros", got)
			}
			kv := Randn(1, 2, 4, 4).To(d)
			mustPanic(t, "dropout probability 1 outside [0, 1)", func() { ScaledDotProductAttention(q, kv, kv, AttentionOptions{Dropout: 1}) })
			src := Randn(2, 5).To(d).SetRequiresGrad(true)
			v, i := src.TopK(0, 1, true)
			if !slices.Equal(v.Shape(), []int{2, 0}) || !slices.Equal(i.Shape(), []int{2, 0}) {
				t.Fatalf("top-0: shapes %v and %v, want [2 0]", v.Shape(), i.Shape())
			}
			v.Sum().Backward()
			if got := src.Grad().Float32s(); slices.ContainsFunc(got, func(v float32) bool { return v != 0 }) {
				t.Fatalf("top-0's gradient: %v, want zeros", got)
			}
			if got := Ones(3).To(d).Sum().Item(); got != 3 { // anything queued above that failed would panic here
				t.Fatalf("a read back after the edge cases: %v", got)
			}
		})
	}
}

// TestMaxPoolNaNTiesRouteTheGradientAsPyTorch pools windows holding several NaNs on every
// device: the last NaN of a window is its maximum, as in the CPU kernel and in PyTorch 1.13
// (torch.nn.functional.max_pool2d(x, 2, 2, return_indices=True) of this x gives indices
// [[5, 7], [13, 11]]).
func TestMaxPoolNaNTiesRouteTheGradientAsPyTorch(t *testing.T) {
	nan := float32(math.NaN())
	for _, d := range testDevices {
		x := New([]float32{nan, 1, nan, 2, 3, nan, 4, nan, 5, 6, 7, 8, nan, nan, 1, 1}, 1, 1, 4, 4).To(d).SetRequiresGrad(true)
		y := MaxPool2d(x, 2, 2)
		y.Sum().Backward()
		if got := fmt.Sprint(y.Float32s(), x.Grad().Float32s()); got != "[NaN NaN NaN 8] [0 0 0 0 0 1 0 1 0 0 0 1 0 1 0 0]" {
			t.Errorf("%s: max pool and gradient %s, want PyTorch's [NaN NaN NaN 8] [0 0 0 0 0 1 0 1 0 0 0 1 0 1 0 0]", d, got)
		}
	}
}

// TestAtChecksItsIndex: one index per dimension, each within its size (negative from the end),
// on every device, views included.
func TestAtChecksItsIndex(t *testing.T) {
	for _, d := range testDevices {
		x := New([]float32{1, 2, 3, 4, 5, 6}, 2, 3).To(d)
		for _, c := range []struct {
			index []int
			want  float64
			panic string
		}{
			{[]int{0, 0}, 1, ""},
			{[]int{1, 2}, 6, ""},
			{[]int{-1, -3}, 4, ""},
			{[]int{2, 0}, 0, "index 2 out of range for dimension 0"},
			{[]int{0, -4}, 0, "index -4 out of range for dimension 1"},
			{[]int{1}, 0, "1 indices for a tensor of shape [2 3]"},
		} {
			got, msg := func() (v float64, msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = fmt.Sprint(r)
					}
				}()
				return x.At(c.index...), ""
			}()
			if c.panic != "" {
				if !strings.Contains(msg, c.panic) {
					t.Errorf("%s: At%v: panic %q, want one saying %q", d, c.index, msg, c.panic)
				}
				continue
			}
			if msg != "" || got != c.want {
				t.Errorf("%s: At%v = %v (panic %q), want %v", d, c.index, got, msg, c.want)
			}
		}
		if got := x.T().Slice(0, 1, 3).At(1, 1); got != 6 {
			t.Errorf("%s: At of a transposed slice = %v, want 6", d, got)
		}
	}
}
