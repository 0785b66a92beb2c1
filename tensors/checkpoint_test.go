package tensors

import (
	"slices"
	"strings"
	"testing"
)

// block is a small residual MLP with dropout: what a checkpointed transformer block computes.
func block(w1, b1, w2 *Tensor, train bool) func(x *Tensor) *Tensor {
	return func(x *Tensor) *Tensor {
		h := Dropout(Linear(x, w1, b1).GELU(), 0.25, train)
		return x.Add(Linear(h, w2, nil).Tanh())
	}
}

func TestCheckpointGivesTheGradientsOfThePlainRun(t *testing.T) {
	cases := []struct {
		name     string
		autocast bool
		tied     bool // the first weight is used again outside the checkpoint
	}{
		{name: "float32"},
		{name: "bf16 autocast", autocast: true},
		{name: "weight also used outside", tied: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := func(checkpoint bool) [][]float32 {
				g := NewGenerator(5)
				w1 := g.Randn(16, 8).MulScalar(0.3).SetRequiresGrad(true)
				b1 := g.Randn(16).SetRequiresGrad(true)
				w2 := g.Randn(8, 16).MulScalar(0.3).SetRequiresGrad(true)
				x0 := g.Randn(4, 8).SetRequiresGrad(true)
				ManualSeed(9)
				step := func() {
					x := x0.MulScalar(2)
					fn := block(w1, b1, w2, true)
					for i := 0; i < 3; i++ {
						if checkpoint {
							x = Checkpoint(fn, x, []*Tensor{w1, b1, w2, w1})
						} else {
							x = fn(x)
						}
					}
					loss := x.Pow(2).Mean()
					if c.tied {
						loss = loss.Add(w1.Sum())
					}
					loss.Backward()
				}
				if c.autocast {
					Autocast(BFloat16, step)
				} else {
					step()
				}
				return [][]float32{x0.Grad().Float32s(), w1.Grad().Float32s(), b1.Grad().Float32s(), w2.Grad().Float32s(), Randn(3).Float32s()}
			}
			plain, ckpt := run(false), run(true)
			for i := range plain {
				if !slices.Equal(plain[i], ckpt[i]) {
					t.Errorf("tensor %d differs with Checkpoint:\nplain %v\nckpt  %v", i, plain[i], ckpt[i])
				}
			}
		})
	}
}

func TestCheckpointRefusesAParameterItWasNotGiven(t *testing.T) {
	w := Randn(3, 3).SetRequiresGrad(true)
	v := Randn(3).SetRequiresGrad(true)
	x := Randn(2, 3).SetRequiresGrad(true)
	out := Checkpoint(func(x *Tensor) *Tensor { return Linear(x, w, v) }, x, []*Tensor{w})
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "neither its input nor among its parameters") {
			t.Fatalf("panic %v, want the missing parameter named", r)
		}
	}()
	out.Sum().Backward()
}

func TestEvictedTensorComesBackOnFirstUse(t *testing.T) {
	w := New([]float32{1, 2, 3, 4}, 2, 2).SetRequiresGrad(true)
	wt := w.Transpose(0, 1) // a view made before the eviction
	calls := 0
	w.Evict(func(p *Tensor) {
		calls++
		p.Unevict(New([]float32{5, 6, 7, 8}, 4))
	})
	if !w.Evicted() {
		t.Fatal("Evicted is false after Evict")
	}
	if got := wt.Float32s(); !slices.Equal(got, []float32{5, 7, 6, 8}) || calls != 1 {
		t.Fatalf("view after eviction %v (%d calls), want [5 7 6 8] after one", got, calls)
	}
	if got := w.Float32s(); !slices.Equal(got, []float32{5, 6, 7, 8}) || calls != 1 || w.Evicted() {
		t.Fatalf("tensor %v after %d calls", got, calls)
	}
}

func TestEvictedTensorPanicsWhenOnUseDoesNotBringItBack(t *testing.T) {
	w := Ones(2)
	w.Evict(func(*Tensor) {})
	defer func() {
		if s, _ := recover().(string); !strings.Contains(s, "without Unevict") {
			t.Fatalf("panic %q", s)
		}
	}()
	w.Float32s()
}
