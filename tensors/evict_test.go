package tensors

import (
	"slices"
	"strings"
	"testing"
)

// TestEvictGivesMemoryBackAndFirstUseBringsItBack evicts a weight that a view and an autograd
// node hold: its elements come back through onUse at the first op that reads them, through the
// weight itself or through the view, and the gradient is the one without eviction.
func TestEvictGivesMemoryBackAndFirstUseBringsItBack(t *testing.T) {
	for _, tc := range []struct {
		name string
		use  func(w, wt *Tensor) []float32
	}{
		{"read", func(w, _ *Tensor) []float32 { return w.Float32s() }},
		{"through a view", func(_, wt *Tensor) []float32 { return wt.Contiguous().Float32s() }},
		{"in an op", func(w, _ *Tensor) []float32 { return w.MulScalar(2).Float32s() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals := []float32{1, 2, 3, 4, 5, 6}
			w := New(slices.Clone(vals), 2, 3)
			wt := w.Transpose(0, 1)
			calls := 0
			w.Evict(func(r *Tensor) {
				calls++
				r.Unevict(New(vals, 6))
			})
			if !w.Evicted() {
				t.Fatal("Evicted() is false after Evict")
			}
			got := tc.use(w, wt)
			if calls != 1 || w.Evicted() {
				t.Fatalf("onUse ran %d times, evicted %v; want once, then resident", calls, w.Evicted())
			}
			want := map[string][]float32{"read": vals, "through a view": {1, 4, 2, 5, 3, 6}, "in an op": {2, 4, 6, 8, 10, 12}}[tc.name]
			if !slices.Equal(got, want) {
				t.Errorf("got %v; want %v", got, want)
			}
		})
	}
	t.Run("backward", func(t *testing.T) {
		grad := func(evict bool) []float32 {
			w := New([]float32{1, 2, 3, 4}, 2, 2).SetRequiresGrad(true)
			x := New([]float32{1, -1, 2, 0.5}, 2, 2)
			y := x.MatMul(w).Sum()
			if evict {
				w.Evict(func(r *Tensor) { r.Unevict(New([]float32{1, 2, 3, 4}, 4)) })
			}
			y.Backward()
			return w.Grad().Float32s()
		}
		if a, b := grad(false), grad(true); !slices.Equal(a, b) {
			t.Errorf("gradient with the weight evicted before the backward pass %v; want %v", b, a)
		}
	})
}

// TestEvictRefusesWhatItCannotDo names the misuse: evicting a part of a storage, an onUse
// that does not bring the elements back.
func TestEvictRefusesWhatItCannotDo(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func()
		want string
	}{
		{"a view", func() { New([]float32{1, 2, 3, 4}, 4).Slice(0, 1, 3).Evict(func(*Tensor) {}) }, "part of a larger storage"},
		{"onUse without Unevict", func() {
			w := New([]float32{1, 2}, 2)
			w.Evict(func(*Tensor) {})
			w.Float32s()
		}, "returned without Unevict"},
		{"nil onUse", func() { New([]float32{1}, 1).Evict(nil) }, "onUse is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tc.want) {
					t.Errorf("panic %v; want one naming %q", r, tc.want)
				}
			}()
			tc.fn()
		})
	}
}
