package optim

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

// fixture is optim_parity.json, written by testdata/gen_optim.py with PyTorch.
type fixture struct {
	Torch      string
	Steps      int
	Optimizers []struct {
		Name   string
		Kind   string
		Config map[string]any
		LRs    []float64 `json:"lrs"`
		Shapes [][]int
		Params [][]float32
		Grads  [][][]float32
		After  [][][]float32
	}
	Schedules []struct {
		Name   string
		Config map[string]any
		BaseLR float64   `json:"base_lr"`
		LRs    []float64 `json:"lrs"`
	}
}

// readFixture decodes optim_parity.json into v.
func readFixture(t *testing.T, v any) {
	t.Helper()
	b, err := os.ReadFile("testdata/optim_parity.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func loadFixture(t *testing.T) *fixture {
	t.Helper()
	var f fixture
	readFixture(t, &f)
	if len(f.Optimizers) == 0 || len(f.Schedules) == 0 {
		t.Fatal("fixture holds no cases")
	}
	return &f
}

func num(cfg map[string]any, key string) float64 {
	v, _ := cfg[key].(float64)
	return v
}

// closeTo reports whether got matches want to rtol relative (with a small absolute floor for values
// near zero, where a relative bound on float32 round-off is meaningless).
func closeTo(got, want float32, rtol float64) bool {
	d := math.Abs(float64(got) - float64(want))
	return d <= rtol*math.Abs(float64(want))+1e-7
}

// adaptiveOptimizer builds an Adadelta, RMSprop or Adagrad optimizer from a fixture's
// configuration, over ps or, when groups is not nil, over groups.
func adaptiveOptimizer(t *testing.T, kind string, ps []*tensors.Tensor, groups []ParamGroup, c map[string]any) Optimizer {
	t.Helper()
	switch kind {
	case "Adadelta":
		cfg := AdadeltaConfig{LR: num(c, "lr"), Rho: num(c, "rho"), Eps: num(c, "eps"), WeightDecay: num(c, "weight_decay")}
		if groups != nil {
			return NewAdadeltaGroups(groups, cfg)
		}
		return NewAdadelta(ps, cfg)
	case "RMSprop":
		cfg := RMSpropConfig{LR: num(c, "lr"), Alpha: num(c, "alpha"), Eps: num(c, "eps"), WeightDecay: num(c, "weight_decay"),
			Momentum: num(c, "momentum"), Centered: c["centered"] == true}
		if groups != nil {
			return NewRMSpropGroups(groups, cfg)
		}
		return NewRMSprop(ps, cfg)
	case "Adagrad":
		cfg := AdagradConfig{LR: num(c, "lr"), LRDecay: num(c, "lr_decay"), WeightDecay: num(c, "weight_decay"),
			InitialAccumulatorValue: num(c, "initial_accumulator_value"), Eps: num(c, "eps")}
		if groups != nil {
			return NewAdagradGroups(groups, cfg)
		}
		return NewAdagrad(ps, cfg)
	}
	t.Fatalf("unknown optimizer kind %s", kind)
	return nil
}

func TestOptimizersMatchPyTorch(t *testing.T) {
	f := loadFixture(t)
	// The CPU's fused kernels, the simulated device's composed updates ("sim") and its fused
	// ones ("simfused") all go through the device boundary and must agree with PyTorch.
	for _, dev := range testDevices {
		for _, c := range f.Optimizers {
			t.Run(fmt.Sprintf("%s/%s", c.Name, dev), func(t *testing.T) {
				ps := make([]*tensors.Tensor, len(c.Shapes))
				for i, s := range c.Shapes {
					ps[i] = tensors.New(c.Params[i], s...).To(dev).SetRequiresGrad(true)
				}
				var opt Optimizer
				switch c.Kind {
				case "SGD":
					opt = NewSGD(ps, SGDConfig{LR: num(c.Config, "lr"), Momentum: num(c.Config, "momentum"),
						Dampening: num(c.Config, "dampening"), WeightDecay: num(c.Config, "weight_decay"),
						Nesterov: c.Config["nesterov"] == true})
				case "Adam", "AdamW":
					cfg := AdamConfig{LR: num(c.Config, "lr"), Eps: num(c.Config, "eps"), WeightDecay: num(c.Config, "weight_decay")}
					if b, ok := c.Config["betas"].([]any); ok {
						cfg.Beta1, cfg.Beta2 = b[0].(float64), b[1].(float64)
					}
					if c.Kind == "Adam" {
						opt = NewAdam(ps, cfg)
					} else {
						if _, ok := c.Config["weight_decay"]; !ok {
							cfg.WeightDecay = 0.01
						}
						opt = NewAdamW(ps, cfg)
					}
				default:
					opt = adaptiveOptimizer(t, c.Kind, ps, nil, c.Config)
				}
				for st := range c.Grads {
					if c.LRs != nil {
						opt.SetLR(c.LRs[st])
					}
					for i, p := range ps {
						p.SetGrad(tensors.New(c.Grads[st][i], c.Shapes[i]...).To(dev))
					}
					opt.Step()
					for i, p := range ps {
						got := p.Float32s()
						for j, w := range c.After[st][i] {
							if !closeTo(got[j], w, 1e-5) {
								t.Fatalf("step %d param %d[%d] = %.9g, PyTorch %s gives %.9g", st+1, i, j, got[j], f.Torch, w)
							}
						}
					}
				}
			})
		}
	}
}

func TestSchedulersMatchPyTorch(t *testing.T) {
	f := loadFixture(t)
	for _, c := range f.Schedules {
		t.Run(c.Name, func(t *testing.T) {
			p := tensors.Zeros(1).SetRequiresGrad(true)
			opt := NewSGD([]*tensors.Tensor{p}, SGDConfig{LR: c.BaseLR})
			warm, total := int(num(c.Config, "warmup")), int(num(c.Config, "total"))
			var s Scheduler
			switch c.Config["kind"] {
			case "constant":
				s = NewConstantSchedule(opt)
			case "constant_warmup":
				s = NewConstantScheduleWithWarmup(opt, warm)
			case "linear":
				s = NewLinearScheduleWithWarmup(opt, warm, total)
			case "cosine":
				s = NewCosineScheduleWithWarmupCycles(opt, warm, total, num(c.Config, "cycles"))
			case "step":
				s = NewStepLR(opt, int(num(c.Config, "step_size")), num(c.Config, "gamma"))
			case "lambda_exp":
				g := num(c.Config, "gamma")
				s = NewLambdaLR(opt, func(step int) float64 { return math.Pow(g, float64(step)) })
			default:
				t.Fatalf("unknown schedule %v", c.Config["kind"])
			}
			for i, want := range c.LRs {
				if i > 0 {
					s.Step()
				}
				if math.Abs(s.LR()-want) > 1e-12+1e-9*math.Abs(want) {
					t.Fatalf("LR after %d steps = %.12g, PyTorch gives %.12g", i, s.LR(), want)
				}
				if opt.LR() != s.LR() {
					t.Fatalf("optimizer LR %v differs from scheduler LR %v", opt.LR(), s.LR())
				}
			}
		})
	}
}
