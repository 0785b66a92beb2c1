package optim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

func newParams(seed uint64) []*tensors.Tensor {
	g := tensors.NewGenerator(seed)
	return []*tensors.Tensor{
		g.Randn(4, 3).SetRequiresGrad(true),
		g.Randn(3).SetRequiresGrad(true),
	}
}

func setGrads(ps []*tensors.Tensor, step int) {
	g := tensors.NewGenerator(uint64(100 + step))
	for _, p := range ps {
		p.SetGrad(g.Randn(p.Shape()...))
	}
}

type ctor func([]*tensors.Tensor) Optimizer

var ctors = map[string]ctor{
	"SGD": func(ps []*tensors.Tensor) Optimizer {
		return NewSGD(ps, SGDConfig{LR: 0.1, Momentum: 0.9, WeightDecay: 0.01})
	},
	"Adam":  func(ps []*tensors.Tensor) Optimizer { return NewAdam(ps, AdamConfig{LR: 0.01, WeightDecay: 0.1}) },
	"AdamW": func(ps []*tensors.Tensor) Optimizer { return NewAdamW(ps, AdamConfig{LR: 0.01, WeightDecay: 0.1}) },
	"Adadelta": func(ps []*tensors.Tensor) Optimizer {
		return NewAdadelta(ps, AdadeltaConfig{WeightDecay: 0.01})
	},
	"RMSprop": func(ps []*tensors.Tensor) Optimizer {
		return NewRMSprop(ps, RMSpropConfig{LR: 0.01, Momentum: 0.9, Centered: true, WeightDecay: 0.01})
	},
	"Adagrad": func(ps []*tensors.Tensor) Optimizer {
		return NewAdagrad(ps, AdagradConfig{LR: 0.1, LRDecay: 0.01, InitialAccumulatorValue: 0.1})
	},
}

func TestStateDictResumeGivesSameParameters(t *testing.T) {
	for name, mk := range ctors {
		t.Run(name, func(t *testing.T) {
			ref := newParams(1)
			refOpt := mk(ref)
			for s := 0; s < 6; s++ {
				setGrads(ref, s)
				refOpt.Step()
			}

			ps := newParams(1)
			opt := mk(ps)
			for s := 0; s < 3; s++ {
				setGrads(ps, s)
				opt.Step()
			}
			opt.SetLR(refOpt.LR())
			sd, err := opt.StateDict()
			if err != nil {
				t.Fatal(err)
			}
			// A fresh optimizer with other hyper-parameters over copies of the parameters.
			resumed := make([]*tensors.Tensor, len(ps))
			for i, p := range ps {
				resumed[i] = p.Detach().Clone().SetRequiresGrad(true)
			}
			opt2 := mk(resumed)
			opt2.SetLR(123)
			if err := opt2.LoadStateDict(sd); err != nil {
				t.Fatal(err)
			}
			if opt2.LR() != refOpt.LR() {
				t.Errorf("LR after load = %v, want %v", opt2.LR(), refOpt.LR())
			}
			for s := 3; s < 6; s++ {
				setGrads(resumed, s)
				opt2.Step()
			}
			for i := range ref {
				a, b := ref[i].Float32s(), resumed[i].Float32s()
				for j := range a {
					if a[j] != b[j] {
						t.Fatalf("param %d[%d]: resumed %v, uninterrupted %v", i, j, b[j], a[j])
					}
				}
			}
		})
	}
}

func TestLoadStateDictRejectsMismatch(t *testing.T) {
	sgd := NewSGD(newParams(1), SGDConfig{LR: 0.1})
	sd, _ := sgd.StateDict()
	cases := []struct {
		name string
		opt  Optimizer
		b    []byte
		want string
	}{
		{"other kind", NewAdam(newParams(1), AdamConfig{}), sd, "saved by an SGD optimizer"},
		{"SGD into RMSprop", NewRMSprop(newParams(1), RMSpropConfig{}), sd, "saved by an SGD optimizer"},
		{"other count", NewSGD(newParams(1)[:1], SGDConfig{LR: 0.1}), sd, "saved with 2 parameters"},
		{"other shape", NewSGD([]*tensors.Tensor{tensors.Zeros(3, 4), tensors.Zeros(3)}, SGDConfig{LR: 0.1}), sd, "shape [3 4]"},
		{"garbage", NewSGD(newParams(1), SGDConfig{LR: 0.1}), []byte("not gob"), "not an optimizer state dict"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.opt.LoadStateDict(c.b)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestStepSkipsParametersWithoutGradient(t *testing.T) {
	for name, mk := range ctors {
		ps := newParams(2)
		before := ps[1].Float32s()
		opt := mk(ps)
		ps[0].SetGrad(tensors.Ones(4, 3))
		opt.Step()
		after := ps[1].Float32s()
		for j := range before {
			if before[j] != after[j] {
				t.Errorf("%s: parameter without gradient changed: %v → %v", name, before, after)
				break
			}
		}
		opt.ZeroGrad()
		if ps[0].Grad() != nil {
			t.Errorf("%s: ZeroGrad left a gradient", name)
		}
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under -race")
	}
	for name, mk := range ctors {
		ps := newParams(3)
		opt := mk(ps)
		setGrads(ps, 0)
		opt.Step()
		if n := testing.AllocsPerRun(20, opt.Step); n != 0 {
			t.Errorf("%s: Step allocates %v times per call, want 0", name, n)
		}
	}
}

func TestInvalidConfigsPanicWithTheField(t *testing.T) {
	ps := newParams(4)
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"negative lr", func() { NewSGD(ps, SGDConfig{LR: -1}) }, "learning rate"},
		{"nesterov without momentum", func() { NewSGD(ps, SGDConfig{LR: 1, Nesterov: true}) }, "Nesterov"},
		{"beta1", func() { NewAdam(ps, AdamConfig{Beta1: 1}) }, "Beta1"},
		{"beta2", func() { NewAdamW(ps, AdamConfig{Beta2: -0.5}) }, "Beta2"},
		{"decay", func() { NewAdamW(ps, AdamConfig{WeightDecay: -0.5}) }, "WeightDecay"},
		{"rho", func() { NewAdadelta(ps, AdadeltaConfig{Rho: 1.5}) }, "Rho"},
		{"alpha", func() { NewRMSprop(ps, RMSpropConfig{Alpha: -1}) }, "Alpha"},
		{"lr decay", func() { NewAdagrad(ps, AdagradConfig{LRDecay: -1}) }, "LRDecay"},
		{"empty", func() { NewSGD(nil, SGDConfig{LR: 1}) }, "empty parameter list"},
		{"duplicate", func() { NewSGD([]*tensors.Tensor{ps[0], ps[0]}, SGDConfig{LR: 1}) }, "same tensor"},
		{"int64 parameter", func() { NewSGD([]*tensors.Tensor{tensors.FromInt64([]int64{1}, 1)}, SGDConfig{LR: 1}) }, "float32"},
		{"step size", func() { NewStepLR(NewSGD(ps, SGDConfig{LR: 1}), 0, 0.5) }, "stepSize"},
		{"warmup beyond total", func() { NewLinearScheduleWithWarmup(NewSGD(ps, SGDConfig{LR: 1}), 10, 5) }, "warmup"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("panic %v, want one containing %q", r, c.want)
				}
			}()
			c.f()
		})
	}
}

func TestSchedulerStateDictResumes(t *testing.T) {
	opt := NewAdamW(newParams(5), AdamConfig{LR: 0.1})
	s := NewCosineScheduleWithWarmup(opt, 3, 20)
	for i := 0; i < 7; i++ {
		s.Step()
	}
	sd, err := s.StateDict()
	if err != nil {
		t.Fatal(err)
	}
	opt2 := NewAdamW(newParams(5), AdamConfig{LR: 0.1})
	s2 := NewCosineScheduleWithWarmup(opt2, 3, 20)
	if err := s2.LoadStateDict(sd); err != nil {
		t.Fatal(err)
	}
	if s2.LR() != s.LR() || opt2.LR() != s.LR() || s2.LastEpoch() != 7 {
		t.Fatalf("after load: LR %v (optimizer %v), step %d; want %v at step 7", s2.LR(), opt2.LR(), s2.LastEpoch(), s.LR())
	}
	s.Step()
	s2.Step()
	if s2.LR() != s.LR() {
		t.Errorf("next LR %v, want %v", s2.LR(), s.LR())
	}
	if err := NewStepLR(opt2, 2, 0.5).LoadStateDict(sd); err == nil || !strings.Contains(err.Error(), "cosine_with_warmup") {
		t.Errorf("loading a cosine state into StepLR: error %v, want one naming the saved kind", err)
	}
}

func TestSetWeightDecayAppliesPerParameter(t *testing.T) {
	for _, kind := range []string{"SGD", "Adam", "AdamW"} {
		t.Run(kind, func(t *testing.T) {
			mk := func(ps []*tensors.Tensor, wd float64) Optimizer {
				switch kind {
				case "SGD":
					return NewSGD(ps, SGDConfig{LR: 0.1, Momentum: 0.9, WeightDecay: wd})
				case "Adam":
					return NewAdam(ps, AdamConfig{LR: 0.01, WeightDecay: wd})
				}
				return NewAdamW(ps, AdamConfig{LR: 0.01, WeightDecay: wd})
			}
			both := newParams(6)
			opt := mk(both, 0.5)
			opt.(interface {
				SetWeightDecay(*tensors.Tensor, float64)
			}).SetWeightDecay(both[1], 0)
			decayed, plain := newParams(6), newParams(6)
			optD, optP := mk(decayed[:1], 0.5), mk(plain[1:], 0)
			for s := 0; s < 4; s++ {
				setGrads(both, s)
				setGrads(decayed, s)
				setGrads(plain, s)
				opt.Step()
				optD.Step()
				optP.Step()
				if s == 1 { // the per-parameter decay survives a state-dict round trip
					sd, _ := opt.StateDict()
					opt = mk(both, 0.5)
					if err := opt.LoadStateDict(sd); err != nil {
						t.Fatal(err)
					}
				}
			}
			if fmt.Sprint(both[0].Float32s()) != fmt.Sprint(decayed[0].Float32s()) {
				t.Error("the decayed parameter differs from a run with WeightDecay 0.5")
			}
			if fmt.Sprint(both[1].Float32s()) != fmt.Sprint(plain[1].Float32s()) {
				t.Error("the parameter set to decay 0 differs from a run with WeightDecay 0")
			}
		})
	}
}
