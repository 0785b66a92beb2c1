package optim

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// groupFixture is one "groups" case of optim_parity.json (testdata/gen_optim.py).
type groupFixture struct {
	Name        string
	Kind        string
	Members     [][]int
	GroupConfig []map[string]any `json:"group_config"`
	Config      map[string]any
	Shapes      [][]int
	Params      [][]float32
	Grads       [][][]float32
	After       [][][]float32
	GroupLRs    [][]float64 `json:"group_lrs"`
	Mid         int
	MidParams   [][]float32     `json:"mid_params"`
	MidState    json.RawMessage `json:"mid_state"`
	FinalState  json.RawMessage `json:"final_state"`
}

func loadGroupFixtures(t *testing.T) []groupFixture {
	t.Helper()
	var f struct {
		Groups []groupFixture
	}
	readFixture(t, &f)
	if len(f.Groups) == 0 {
		t.Fatal("fixture holds no parameter-group cases")
	}
	return f.Groups
}

// build makes the case's optimizer (and scheduler, when it has one) over tensors holding vals.
func (c *groupFixture) build(t *testing.T, vals [][]float32) ([]*tensors.Tensor, Optimizer, Scheduler) {
	ps := make([]*tensors.Tensor, len(c.Shapes))
	for i, s := range c.Shapes {
		ps[i] = tensors.New(append([]float32(nil), vals[i]...), s...).SetRequiresGrad(true)
	}
	var gs []ParamGroup
	k := 0
	for gi, m := range c.Members {
		g := ParamGroup{Params: ps[k : k+len(m)], LR: num(c.GroupConfig[gi], "lr"), WeightDecay: num(c.GroupConfig[gi], "weight_decay")}
		k += len(m)
		gs = append(gs, g)
	}
	var opt Optimizer
	switch c.Kind {
	case "SGD":
		opt = NewSGDGroups(gs, SGDConfig{LR: num(c.Config, "lr"), Momentum: num(c.Config, "momentum")})
	case "Adam", "AdamW":
		cfg := AdamConfig{LR: num(c.Config, "lr")}
		if b, ok := c.Config["betas"].([]any); ok {
			cfg.Beta1, cfg.Beta2 = b[0].(float64), b[1].(float64)
		}
		if c.Kind == "Adam" {
			opt = NewAdamGroups(gs, cfg)
		} else {
			opt = NewAdamWGroups(gs, cfg)
		}
	default:
		opt = adaptiveOptimizer(t, c.Kind, nil, gs, c.Config)
	}
	var s Scheduler
	switch c.Name {
	case "adamw_groups_cosine":
		s = NewCosineScheduleWithWarmup(opt, 2, 6)
	case "sgd_groups_steplr":
		s = NewStepLR(opt, 2, 0.5)
	case "adadelta_groups_steplr":
		s = NewStepLR(opt, 1, 0.7)
	}
	return ps, opt, s
}

// runSteps applies steps [from, to) of the case and checks parameters and group LRs after each.
func (c *groupFixture) runSteps(t *testing.T, ps []*tensors.Tensor, opt Optimizer, s Scheduler, from, to int) {
	t.Helper()
	for st := from; st < to; st++ {
		for i, p := range ps {
			p.SetGrad(tensors.New(c.Grads[st][i], c.Shapes[i]...))
		}
		opt.Step()
		if s != nil {
			s.Step()
		}
		for i, p := range ps {
			got := p.Float32s()
			for j, w := range c.After[st][i] {
				if !closeTo(got[j], w, 1e-5) {
					t.Fatalf("step %d param %d[%d] = %.9g, PyTorch gives %.9g", st+1, i, j, got[j], w)
				}
			}
		}
		for gi, pg := range opt.(Grouped).ParamGroups() {
			if want := c.GroupLRs[st+1][gi]; math.Abs(pg.LR-want) > 1e-12+1e-9*want {
				t.Fatalf("after step %d group %d lr = %.12g, PyTorch gives %.12g", st+1, gi, pg.LR, want)
			}
		}
	}
}

func TestParamGroupsMatchPyTorch(t *testing.T) {
	for _, c := range loadGroupFixtures(t) {
		t.Run(c.Name, func(t *testing.T) {
			ps, opt, s := c.build(t, c.Params)
			for gi, pg := range opt.(Grouped).ParamGroups() {
				if pg.LR != c.GroupLRs[0][gi] {
					t.Fatalf("initial group %d lr = %v, PyTorch has %v", gi, pg.LR, c.GroupLRs[0][gi])
				}
			}
			c.runSteps(t, ps, opt, s, 0, len(c.Grads))
		})
	}
}

// A PyTorch state dict taken mid-run, loaded into a fresh optimizer over the parameters of that
// moment, continues exactly as PyTorch did.
func TestLoadingPyTorchStateDictContinuesTheRun(t *testing.T) {
	for _, c := range loadGroupFixtures(t) {
		t.Run(c.Name, func(t *testing.T) {
			ps, opt, s := c.build(t, c.MidParams)
			if err := opt.LoadStateDict(c.MidState); err != nil {
				t.Fatal(err)
			}
			if s != nil { // the scheduler's position is part of its own state, not the optimizer's
				for range c.Mid {
					s.Step()
				}
			}
			c.runSteps(t, ps, opt, s, c.Mid, len(c.Grads))
		})
	}
}

// goaccel's state dict has PyTorch's layout: the same param_groups keys and values, the same
// per-parameter state keys, step counts and buffers.
func TestStateDictHasPyTorchsLayout(t *testing.T) {
	// Keys PyTorch writes that goaccel leaves out: options it does not have (always off) and the
	// scheduler's bookkeeping (kept in the scheduler's own state dict).
	omitted := map[string]bool{"differentiable": true, "fused": true, "initial_lr": true}
	for _, c := range loadGroupFixtures(t) {
		t.Run(c.Name, func(t *testing.T) {
			ps, opt, s := c.build(t, c.Params)
			for st := range c.Grads {
				for i, p := range ps {
					p.SetGrad(tensors.New(c.Grads[st][i], c.Shapes[i]...))
				}
				opt.Step()
				if s != nil {
					s.Step()
				}
			}
			b, err := opt.StateDict()
			if err != nil {
				t.Fatal(err)
			}
			var got, want struct {
				State       map[string]map[string]json.RawMessage
				ParamGroups []map[string]any `json:"param_groups"`
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(c.FinalState, &want); err != nil {
				t.Fatal(err)
			}
			if len(got.ParamGroups) != len(want.ParamGroups) {
				t.Fatalf("%d param_groups, PyTorch has %d", len(got.ParamGroups), len(want.ParamGroups))
			}
			for gi, wg := range want.ParamGroups {
				gg := got.ParamGroups[gi]
				for k, wv := range wg {
					if omitted[k] {
						continue
					}
					gv, ok := gg[k]
					if !ok {
						t.Errorf("group %d lacks %q (PyTorch: %v)", gi, k, wv)
					} else if !sameJSON(gv, wv) {
						t.Errorf("group %d %q = %v, PyTorch has %v", gi, k, gv, wv)
					}
				}
				if extra := keysNotIn(gg, wg); len(extra) > 0 {
					t.Errorf("group %d has keys PyTorch does not write: %v", gi, extra)
				}
			}
			if len(got.State) != len(want.State) {
				// PyTorch's SGD without momentum keeps {"momentum_buffer": null}; goaccel keeps nothing.
				if c.Config["momentum"] != nil {
					t.Errorf("state for %d parameters, PyTorch has %d", len(got.State), len(want.State))
				}
			}
			for key, ws := range want.State {
				gs := got.State[key]
				for name, wv := range ws {
					if string(wv) == "null" {
						continue
					}
					gv, ok := gs[name]
					if !ok {
						t.Errorf("parameter %s lacks %q", key, name)
						continue
					}
					if name == "step" {
						if !sameJSON(rawAny(gv), rawAny(wv)) {
							t.Errorf("parameter %s step %s, PyTorch %s", key, gv, wv)
						}
						continue
					}
					var i int
					fmt.Sscan(key, &i)
					shape := c.Shapes[i]
					n := numel(shape)
					a, b := make([]float32, n), make([]float32, n)
					if err := decodeTensor(gv, a, shape); err != nil {
						t.Fatalf("parameter %s %s: %v", key, name, err)
					}
					if err := decodeTensor(wv, b, shape); err != nil {
						t.Fatalf("PyTorch's parameter %s %s: %v", key, name, err)
					}
					for j := range a {
						if !closeTo(a[j], b[j], 1e-5) {
							t.Fatalf("parameter %s %s[%d] = %.9g, PyTorch %.9g", key, name, j, a[j], b[j])
						}
					}
				}
			}
		})
	}
}

func rawAny(b json.RawMessage) any {
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

func sameJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func keysNotIn(a, b map[string]any) []string {
	var out []string
	for k := range a {
		if _, ok := b[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
