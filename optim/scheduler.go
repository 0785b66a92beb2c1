package optim

import (
	"encoding/json"
	"fmt"
	"math"
)

// Scheduler sets an optimizer's learning rate step by step. Construction applies the LR of step 0;
// each Step advances one step and applies the next LR, as PyTorch's LambdaLR does. An optimizer
// with parameter groups (Grouped) has each group's learning rate set from its own initial value.
type Scheduler interface {
	// Step advances the schedule by one step and sets the optimizer's learning rate.
	Step()
	// LR returns the learning rate last set (of the first group: PyTorch's get_last_lr()[0]).
	LR() float64
	// StateDict serialises the schedule's position.
	StateDict() ([]byte, error)
	// LoadStateDict restores what StateDict saved and re-applies that step's learning rate.
	LoadStateDict(state []byte) error
}

// LambdaLR multiplies each parameter group's initial learning rate by a factor of the step
// number: lr(group, step) = baseLR(group) · Factor(step). Every scheduler of this package is a
// LambdaLR with a named factor; NewLambdaLR takes any func.
type LambdaLR struct {
	opt     Optimizer
	grouped Grouped // opt when it has parameter groups, else nil
	name    string
	factor  func(step int) float64
	baseLRs []float64
	step    int
	lastLRs []float64
}

func newLambda(opt Optimizer, name string, factor func(int) float64) *LambdaLR {
	if opt == nil {
		panic(fmt.Sprintf("optim: %s: nil optimizer", name))
	}
	s := &LambdaLR{opt: opt, name: name, factor: factor}
	if g, ok := opt.(Grouped); ok {
		s.grouped = g
		for _, pg := range g.ParamGroups() {
			s.baseLRs = append(s.baseLRs, pg.LR)
		}
	} else {
		s.baseLRs = []float64{opt.LR()}
	}
	s.lastLRs = make([]float64, len(s.baseLRs))
	s.apply()
	return s
}

// NewLambdaLR returns a scheduler setting lr = initial LR · factor(step), step counting from 0 at
// construction (torch.optim.lr_scheduler.LambdaLR). The func is not part of the state dict.
func NewLambdaLR(opt Optimizer, factor func(step int) float64) *LambdaLR {
	if factor == nil {
		panic("optim: NewLambdaLR: nil factor func")
	}
	return newLambda(opt, "LambdaLR", factor)
}

// NewConstantSchedule keeps the optimizer's learning rate (transformers' get_constant_schedule).
func NewConstantSchedule(opt Optimizer) *LambdaLR {
	return newLambda(opt, "constant", func(int) float64 { return 1 })
}

// NewConstantScheduleWithWarmup raises the LR linearly from 0 over warmup steps, then holds it
// (transformers' get_constant_schedule_with_warmup).
func NewConstantScheduleWithWarmup(opt Optimizer, warmup int) *LambdaLR {
	checkSteps("NewConstantScheduleWithWarmup", warmup, -1)
	return newLambda(opt, "constant_with_warmup", func(step int) float64 {
		if step < warmup {
			return float64(step) / math.Max(1, float64(warmup))
		}
		return 1
	})
}

// NewLinearScheduleWithWarmup raises the LR linearly from 0 over warmup steps, then lowers it
// linearly to 0 at total steps (transformers' get_linear_schedule_with_warmup).
func NewLinearScheduleWithWarmup(opt Optimizer, warmup, total int) *LambdaLR {
	checkSteps("NewLinearScheduleWithWarmup", warmup, total)
	return newLambda(opt, "linear_with_warmup", func(step int) float64 {
		if step < warmup {
			return float64(step) / float64(max(1, warmup))
		}
		return math.Max(0, float64(total-step)/float64(max(1, total-warmup)))
	})
}

// NewCosineScheduleWithWarmup raises the LR linearly from 0 over warmup steps, then follows a
// cosine from the initial LR down to 0 at total steps (transformers'
// get_cosine_schedule_with_warmup with num_cycles 0.5). NewCosineScheduleWithWarmupCycles sets the
// number of cosine waves.
func NewCosineScheduleWithWarmup(opt Optimizer, warmup, total int) *LambdaLR {
	return NewCosineScheduleWithWarmupCycles(opt, warmup, total, 0.5)
}

// NewCosineScheduleWithWarmupCycles is NewCosineScheduleWithWarmup with cycles cosine waves (0.5 is
// one half wave, from the peak down to 0).
func NewCosineScheduleWithWarmupCycles(opt Optimizer, warmup, total int, cycles float64) *LambdaLR {
	checkSteps("NewCosineScheduleWithWarmup", warmup, total)
	return newLambda(opt, "cosine_with_warmup", func(step int) float64 {
		if step < warmup {
			return float64(step) / float64(max(1, warmup))
		}
		progress := float64(step-warmup) / float64(max(1, total-warmup))
		return math.Max(0, 0.5*(1+math.Cos(math.Pi*cycles*2*progress)))
	})
}

// NewStepLR multiplies the LR by gamma every stepSize steps (torch.optim.lr_scheduler.StepLR).
func NewStepLR(opt Optimizer, stepSize int, gamma float64) *LambdaLR {
	if stepSize <= 0 {
		panic(fmt.Sprintf("optim: NewStepLR: invalid stepSize %d (must be > 0)", stepSize))
	}
	return newLambda(opt, "step", func(step int) float64 {
		return math.Pow(gamma, float64(step/stepSize))
	})
}

func checkSteps(op string, warmup, total int) {
	if warmup < 0 {
		panic(fmt.Sprintf("optim: %s: invalid warmup %d (must be ≥ 0)", op, warmup))
	}
	if total >= 0 && total < warmup {
		panic(fmt.Sprintf("optim: %s: total steps %d is less than the warmup %d", op, total, warmup))
	}
}

func (s *LambdaLR) apply() {
	f := s.factor(s.step)
	for i, base := range s.baseLRs {
		s.lastLRs[i] = base * f
		if s.grouped != nil {
			s.grouped.SetGroupLR(i, s.lastLRs[i])
		}
	}
	if s.grouped == nil {
		s.opt.SetLR(s.lastLRs[0])
	}
}

// Step advances one step and sets the optimizer's learning rates.
func (s *LambdaLR) Step() {
	s.step++
	s.apply()
}

// LR returns the learning rate last set (of the first group).
func (s *LambdaLR) LR() float64 { return s.lastLRs[0] }

// LRs returns the learning rate last set of each group (PyTorch's get_last_lr()).
func (s *LambdaLR) LRs() []float64 { return append([]float64(nil), s.lastLRs...) }

// LastEpoch returns the number of Step calls so far (PyTorch's last_epoch).
func (s *LambdaLR) LastEpoch() int { return s.step }

// BaseLR returns the first group's learning rate when the scheduler was created.
func (s *LambdaLR) BaseLR() float64 { return s.baseLRs[0] }

// BaseLRs returns each group's learning rate when the scheduler was created (PyTorch's base_lrs).
func (s *LambdaLR) BaseLRs() []float64 { return append([]float64(nil), s.baseLRs...) }

// schedState is a scheduler's state dict: PyTorch's LambdaLR.state_dict() layout (whose
// lr_lambdas are null for functions), plus the schedule's name under "goaccel".
type schedState struct {
	BaseLRs   []float64   `json:"base_lrs"`
	LastEpoch int         `json:"last_epoch"`
	Verbose   bool        `json:"verbose"`
	StepCount int         `json:"_step_count"`
	InStep    bool        `json:"_get_lr_called_within_step"`
	LastLRs   []float64   `json:"_last_lr"`
	Lambdas   []*struct{} `json:"lr_lambdas"`
	Goaccel   *schedExtra `json:"goaccel,omitempty"`
}

type schedExtra struct {
	Name string `json:"name"`
}

// legacySched is the state layout before parameter groups (one base LR).
type legacySched struct {
	Name      string  `json:"name"`
	BaseLR    float64 `json:"base_lr"`
	LastEpoch int     `json:"last_epoch"`
}

// StateDict serialises the schedule's name, base learning rates and step as JSON in the layout of
// PyTorch's LambdaLR.state_dict().
func (s *LambdaLR) StateDict() ([]byte, error) {
	return json.Marshal(schedState{BaseLRs: s.baseLRs, LastEpoch: s.step, StepCount: s.step + 1,
		LastLRs: s.lastLRs, Lambdas: make([]*struct{}, len(s.baseLRs)), Goaccel: &schedExtra{Name: s.name}})
}

// LoadStateDict restores a state saved by a scheduler of the same kind over as many parameter
// groups (or a PyTorch LambdaLR state dict) and sets the optimizer's learning rates for the
// restored step.
func (s *LambdaLR) LoadStateDict(b []byte) error {
	var st schedState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("optim: load %s scheduler state: %w", s.name, err)
	}
	if st.BaseLRs == nil {
		var old legacySched
		if err := json.Unmarshal(b, &old); err != nil || old.Name == "" {
			return fmt.Errorf("optim: load %s scheduler state: not a scheduler state dict (no \"base_lrs\")", s.name)
		}
		st.BaseLRs, st.LastEpoch, st.Goaccel = []float64{old.BaseLR}, old.LastEpoch, &schedExtra{Name: old.Name}
	}
	if st.Goaccel != nil && st.Goaccel.Name != s.name {
		return fmt.Errorf("optim: load %s scheduler state: the state was saved by a %q scheduler", s.name, st.Goaccel.Name)
	}
	if st.LastEpoch < 0 {
		return fmt.Errorf("optim: load %s scheduler state: negative step %d", s.name, st.LastEpoch)
	}
	if len(st.BaseLRs) != len(s.baseLRs) {
		return fmt.Errorf("optim: load %s scheduler state: saved for %d parameter groups, the optimizer has %d", s.name, len(st.BaseLRs), len(s.baseLRs))
	}
	for i, lr := range st.BaseLRs {
		if !(lr >= 0) {
			return fmt.Errorf("optim: load %s scheduler state: invalid base learning rate %v of group %d", s.name, lr, i)
		}
	}
	copy(s.baseLRs, st.BaseLRs)
	s.step = st.LastEpoch
	s.apply()
	return nil
}
