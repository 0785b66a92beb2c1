package optim

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

func TestDecayGroupsSplitsMatricesFromVectors(t *testing.T) {
	w1, b1 := tensors.Zeros(4, 3), tensors.Zeros(4)
	emb, ln := tensors.Zeros(10, 2, 2), tensors.Zeros(2)
	gs := DecayGroups([]*tensors.Tensor{w1, b1, emb, ln}, 0.1)
	if len(gs) != 2 {
		t.Fatalf("%d groups, want 2", len(gs))
	}
	if len(gs[0].Params) != 2 || gs[0].Params[0] != w1 || gs[0].Params[1] != emb || gs[0].WeightDecay != 0.1 {
		t.Errorf("decay group %+v; want w1 and emb with weight decay 0.1", gs[0])
	}
	if len(gs[1].Params) != 2 || gs[1].Params[0] != b1 || gs[1].Params[1] != ln || gs[1].WeightDecay != 0 {
		t.Errorf("no-decay group %+v; want b1 and ln with weight decay 0", gs[1])
	}
	if gs := DecayGroups([]*tensors.Tensor{b1}, 0.1); len(gs) != 1 || gs[0].WeightDecay != 0 {
		t.Errorf("vectors only: %+v; want one group without decay", gs)
	}
}

func TestGroupsTakeTheOptimizersLRUnlessTheyHaveTheirOwn(t *testing.T) {
	ps := newParams(1)
	opt := NewAdamWGroups([]ParamGroup{{Params: ps[:1], WeightDecay: 0.1}, {Params: ps[1:], LR: 0.5}}, AdamConfig{LR: 0.01})
	gs := opt.ParamGroups()
	if gs[0].LR != 0.01 || gs[1].LR != 0.5 || gs[0].WeightDecay != 0.1 || gs[1].WeightDecay != 0 {
		t.Fatalf("groups %+v; want lr 0.01 (inherited) / 0.5 and weight decay 0.1 / 0", gs)
	}
	if opt.LR() != 0.01 || opt.Config().LR != 0.01 {
		t.Errorf("LR() %v, Config().LR %v; want the first group's 0.01", opt.LR(), opt.Config().LR)
	}
	opt.SetGroupLR(1, 0.25)
	if got := opt.ParamGroups()[1].LR; got != 0.25 {
		t.Errorf("after SetGroupLR(1, 0.25) group 1 lr = %v", got)
	}
	opt.SetLR(0.3)
	for i, g := range opt.ParamGroups() {
		if g.LR != 0.3 {
			t.Errorf("after SetLR(0.3) group %d lr = %v", i, g.LR)
		}
	}
	if p := opt.Params(); len(p) != 2 || p[0] != ps[0] || p[1] != ps[1] {
		t.Error("Params() is not the groups' parameters in order")
	}
}

func TestInvalidGroupsPanicWithTheGroup(t *testing.T) {
	ps := newParams(2)
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"no groups", func() { NewAdamWGroups(nil, AdamConfig{}) }, "no parameter groups"},
		{"negative lr", func() { NewSGDGroups([]ParamGroup{{Params: ps, LR: -1}}, SGDConfig{LR: 0.1}) }, "group 0: invalid learning rate"},
		{"negative decay", func() {
			NewAdamGroups([]ParamGroup{{Params: ps[:1]}, {Params: ps[1:], WeightDecay: -0.1}}, AdamConfig{})
		}, "group 1: invalid weight decay"},
		{"parameter in two groups", func() {
			NewAdamWGroups([]ParamGroup{{Params: ps}, {Params: ps[1:]}}, AdamConfig{})
		}, "in one group"},
		{"all groups empty", func() { NewSGDGroups([]ParamGroup{{}, {}}, SGDConfig{LR: 1}) }, "empty parameter list"},
		{"group index", func() { NewSGD(ps, SGDConfig{LR: 1}).SetGroupLR(1, 0.1) }, "group 1 out of range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("panic %v, want one containing %q", r, c.want)
				}
			}()
			c.f()
		})
	}
}

// An empty group (a model without biases, split with DecayGroups' rule by hand) is allowed, as in
// PyTorch.
func TestEmptyGroupIsAllowed(t *testing.T) {
	ps := newParams(3)
	opt := NewSGDGroups([]ParamGroup{{Params: ps}, {Params: nil, LR: 1}}, SGDConfig{LR: 0.1})
	setGrads(ps, 0)
	opt.Step()
	sd, err := opt.StateDict()
	if err != nil {
		t.Fatal(err)
	}
	if err := NewSGDGroups([]ParamGroup{{Params: newParams(3)}, {LR: 1}}, SGDConfig{LR: 0.1}).LoadStateDict(sd); err != nil {
		t.Fatal(err)
	}
}

func TestSchedulerActsOnEveryGroup(t *testing.T) {
	ps := newParams(4)
	opt := NewSGDGroups([]ParamGroup{{Params: ps[:1], LR: 0.2}, {Params: ps[1:], LR: 0.05}}, SGDConfig{LR: 0.1})
	s := NewStepLR(opt, 2, 0.5)
	for range 4 {
		s.Step()
	}
	gs := opt.ParamGroups()
	if gs[0].LR != 0.05 || gs[1].LR != 0.0125 {
		t.Fatalf("after 4 steps of StepLR(2, 0.5) group LRs %v, %v; want 0.05, 0.0125", gs[0].LR, gs[1].LR)
	}
	if got := s.LRs(); len(got) != 2 || got[0] != 0.05 || got[1] != 0.0125 || s.LR() != 0.05 {
		t.Errorf("LRs() = %v, LR() = %v", got, s.LR())
	}
	if b := s.BaseLRs(); b[0] != 0.2 || b[1] != 0.05 {
		t.Errorf("BaseLRs() = %v", b)
	}
	sd, err := s.StateDict()
	if err != nil {
		t.Fatal(err)
	}
	one := NewStepLR(NewSGD(newParams(4), SGDConfig{LR: 0.1}), 2, 0.5)
	if err := one.LoadStateDict(sd); err == nil || !strings.Contains(err.Error(), "saved for 2 parameter groups") {
		t.Errorf("loading a two-group schedule into a one-group optimizer: %v", err)
	}
	opt2 := NewSGDGroups([]ParamGroup{{Params: newParams(4)[:1], LR: 1}, {Params: newParams(4)[1:], LR: 1}}, SGDConfig{LR: 1})
	s2 := NewStepLR(opt2, 2, 0.5)
	if err := s2.LoadStateDict(sd); err != nil {
		t.Fatal(err)
	}
	if gs := opt2.ParamGroups(); gs[0].LR != 0.05 || gs[1].LR != 0.0125 || s2.LastEpoch() != 4 {
		t.Errorf("after load: group LRs %v, %v at step %d", gs[0].LR, gs[1].LR, s2.LastEpoch())
	}
}

// A scheduler over an Optimizer that is not Grouped (one a notebook implements) uses LR/SetLR.
type plainOpt struct {
	Optimizer
	lr float64
}

func (o *plainOpt) LR() float64      { return o.lr }
func (o *plainOpt) SetLR(lr float64) { o.lr = lr }

func TestSchedulerOverAnUngroupedOptimizer(t *testing.T) {
	o := &plainOpt{lr: 1}
	s := NewStepLR(o, 1, 0.5)
	s.Step()
	s.Step()
	if o.lr != 0.25 {
		t.Errorf("lr %v after two halvings, want 0.25", o.lr)
	}
}

func TestGroupStateDictResumes(t *testing.T) {
	mk := func(ps []*tensors.Tensor) *Adam {
		return NewAdamWGroups(DecayGroups(ps, 0.3), AdamConfig{LR: 0.01})
	}
	ref, ps := newParams(5), newParams(5)
	refOpt, opt := mk(ref), mk(ps)
	for s := 0; s < 6; s++ {
		setGrads(ref, s)
		refOpt.Step()
	}
	for s := 0; s < 3; s++ {
		setGrads(ps, s)
		opt.Step()
	}
	opt.SetWeightDecay(ps[0], 0.3) // an explicit per-parameter value round-trips too
	sd, err := opt.StateDict()
	if err != nil {
		t.Fatal(err)
	}
	resumed := []*tensors.Tensor{ps[0].Detach().Clone().SetRequiresGrad(true), ps[1].Detach().Clone().SetRequiresGrad(true)}
	opt2 := NewAdamWGroups([]ParamGroup{{Params: resumed[:1], LR: 9, WeightDecay: 9}, {Params: resumed[1:], LR: 9}}, AdamConfig{})
	if err := opt2.LoadStateDict(sd); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(groupValues(opt2)) != fmt.Sprint(groupValues(opt)) {
		t.Fatalf("groups after load %v, saved %v", groupValues(opt2), groupValues(opt))
	}
	for s := 3; s < 6; s++ {
		setGrads(resumed, s)
		opt2.Step()
	}
	for i := range ref {
		if fmt.Sprint(ref[i].Float32s()) != fmt.Sprint(resumed[i].Float32s()) {
			t.Errorf("parameter %d: resumed %v, uninterrupted %v", i, resumed[i].Float32s(), ref[i].Float32s())
		}
	}
}

func groupValues(o Grouped) [][2]float64 {
	var out [][2]float64
	for _, g := range o.ParamGroups() {
		out = append(out, [2]float64{g.LR, g.WeightDecay})
	}
	return out
}

func TestLoadStateDictRejectsWhatItCannotHonour(t *testing.T) {
	ps := newParams(6)
	two := func() *Adam {
		return NewAdamWGroups([]ParamGroup{{Params: ps[:1]}, {Params: ps[1:]}}, AdamConfig{})
	}
	torchSGD := `{"state": {}, "param_groups": [{"lr": 0.1, "momentum": 0.9, "dampening": 0, "weight_decay": 0, "nesterov": false, "params": [0, 1]}]}`
	adamGroup := `{"lr": 0.1, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0, "amsgrad": %s, "params": %s}`
	cases := []struct {
		name string
		opt  Optimizer
		sd   string
		want string
	}{
		{"one group into two", two(), fmt.Sprintf(`{"state": {}, "param_groups": [`+adamGroup+`]}`, "false", "[0, 1]"), "saved with 1 parameter groups, this optimizer has 2"},
		{"PyTorch SGD into AdamW", NewAdamW(ps, AdamConfig{}), torchSGD, "saved by an SGD optimizer"},
		{"amsgrad", NewAdam(ps, AdamConfig{}), fmt.Sprintf(`{"state": {}, "param_groups": [`+adamGroup+`]}`, "true", "[0, 1]"), "amsgrad"},
		{"no param_groups", NewSGD(ps, SGDConfig{LR: 1}), `{"state": {}}`, "no \"param_groups\""},
		{"state of an unlisted parameter", NewAdam(ps, AdamConfig{}),
			fmt.Sprintf(`{"state": {"7": {"step": 1}}, "param_groups": [`+adamGroup+`]}`, "false", "[0, 1]"), "no group lists"},
		{"buffer of another shape", NewAdam(ps, AdamConfig{}),
			fmt.Sprintf(`{"state": {"1": {"step": 1, "exp_avg": {"dtype": "F32", "shape": [2], "data": "AAAAAAAAAAA="}, "exp_avg_sq": {"dtype": "F32", "shape": [2], "data": "AAAAAAAAAAA="}}}, "param_groups": [`+adamGroup+`]}`, "false", "[0, 1]"),
			"exp_avg: shape [2]; the parameter has shape [3]"},
		{"negative lr", NewSGD(ps, SGDConfig{LR: 1}), strings.Replace(torchSGD, `"lr": 0.1`, `"lr": -1`, 1), "invalid learning rate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := fmt.Sprint(c.opt.(Grouped).ParamGroups()[0].LR)
			err := c.opt.LoadStateDict([]byte(c.sd))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
			if after := fmt.Sprint(c.opt.(Grouped).ParamGroups()[0].LR); after != before {
				t.Errorf("a refused state changed the learning rate from %s to %s", before, after)
			}
		})
	}
}

// States written before parameter groups (gob, layout version 1) still load.
func TestLegacyGobStateLoads(t *testing.T) {
	ps := newParams(7)
	m := make([]float32, 12)
	m[5] = 0.5
	old := legacyState{Version: 1, Kind: "AdamW", Hyper: map[string]float64{"lr": 0.02, "beta1": 0.8, "beta2": 0.99, "eps": 1e-6, "weight_decay": 0.1},
		Shapes: [][]int{{4, 3}, {3}}, Steps: []int64{4, 0},
		Buffers: []map[string][]float32{{"exp_avg": m, "exp_avg_sq": make([]float32, 12)}, nil}, Decays: []float64{0.1, 0}}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(old); err != nil {
		t.Fatal(err)
	}
	opt := NewAdamW(ps, AdamConfig{})
	if err := opt.LoadStateDict(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	c := opt.Config()
	if c.LR != 0.02 || c.Beta1 != 0.8 || c.Beta2 != 0.99 || c.Eps != 1e-6 || opt.steps[0] != 4 || opt.m[0].Float32s()[5] != 0.5 || opt.decay[1] != 0 {
		t.Errorf("loaded config %+v, steps %v, m[0][5] %v, decays %v", c, opt.steps, opt.m[0].Float32s()[5], opt.decay)
	}
	if err := NewSGD(ps, SGDConfig{LR: 1}).LoadStateDict(buf.Bytes()); err == nil || !strings.Contains(err.Error(), "saved by an AdamW optimizer") {
		t.Errorf("gob AdamW state into SGD: %v", err)
	}
}
