package optim

import (
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// TestReplaceParamsStepsTheReplacements points each optimizer at new tensors before its first
// step: the step updates them with their group's settings, the old ones stay as they were, and
// a replacement after a step is refused.
func TestReplaceParamsStepsTheReplacements(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(ps []*tensors.Tensor) Optimizer
	}{
		{"sgd", func(ps []*tensors.Tensor) Optimizer { return NewSGD(ps, SGDConfig{LR: 0.1, Momentum: 0.9}) }},
		{"adamw", func(ps []*tensors.Tensor) Optimizer { return NewAdamW(ps, AdamConfig{LR: 0.1, WeightDecay: 0.1}) }},
		{"rmsprop", func(ps []*tensors.Tensor) Optimizer { return NewRMSprop(ps, RMSpropConfig{LR: 0.1}) }},
		{"adadelta", func(ps []*tensors.Tensor) Optimizer { return NewAdadelta(ps, AdadeltaConfig{LR: 0.1}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := tensors.New([]float32{1, 2, 3, 4}, 4)
			repl := tensors.New([]float32{1, 2, 3, 4}, 4)
			ref := tensors.New([]float32{1, 2, 3, 4}, 4)
			opt := tc.make([]*tensors.Tensor{old})
			if err := opt.(ParamReplacer).ReplaceParams(func(p *tensors.Tensor) *tensors.Tensor { return repl }); err != nil {
				t.Fatal(err)
			}
			want := tc.make([]*tensors.Tensor{ref})
			for _, p := range []*tensors.Tensor{repl, ref} {
				p.SetGrad(tensors.New([]float32{0.5, -1, 2, 0}, 4))
			}
			opt.Step()
			want.Step()
			if !slices.Equal(repl.Float32s(), ref.Float32s()) {
				t.Errorf("replacement after a step %v; want %v", repl.Float32s(), ref.Float32s())
			}
			if !slices.Equal(old.Float32s(), []float32{1, 2, 3, 4}) {
				t.Errorf("the replaced parameter changed: %v", old.Float32s())
			}
			err := opt.(ParamReplacer).ReplaceParams(func(p *tensors.Tensor) *tensors.Tensor { return old })
			if err == nil || !strings.Contains(err.Error(), "before the first step") {
				t.Errorf("replacement after a step: %v; want an error", err)
			}
		})
	}
}
