package optim

import (
	"encoding/json"
	"fmt"
	"math"
)

// Scheduler sets an optimizer's learning rate step by step. Construction applies the LR of step 0;
// each Step advances one step and applies the next LR, as PyTorch's LambdaLR does.
type Scheduler interface {
	// Step advances the schedule by one step and sets the optimizer's learning rate.
	Step()
	// LR returns the learning rate last set (PyTorch's get_last_lr()[0]).
	LR() float64
	// StateDict serialises the schedule's position.
	StateDict() ([]byte, error)
	// LoadStateDict restores what StateDict saved and re-applies that step's learning rate.
	LoadStateDict(state []byte) error
}

// LambdaLR multiplies the optimizer's initial learning rate by a factor of the step number:
// lr(step) = baseLR · Factor(step). Every scheduler of this package is a LambdaLR with a named
// factor; NewLambdaLR takes any func.
type LambdaLR struct {
	opt    Optimizer
	name   string
	factor func(step int) float64
	baseLR float64
	step   int
	lastLR float64
}

func newLambda(opt Optimizer, name string, factor func(int) float64) *LambdaLR {
	if opt == nil {
		panic(fmt.Sprintf("optim: %s: nil optimizer", name))
	}
	s := &LambdaLR{opt: opt, name: name, factor: factor, baseLR: opt.LR()}
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
	s.lastLR = s.baseLR * s.factor(s.step)
	s.opt.SetLR(s.lastLR)
}

// Step advances one step and sets the optimizer's learning rate.
func (s *LambdaLR) Step() {
	s.step++
	s.apply()
}

// LR returns the learning rate last set.
func (s *LambdaLR) LR() float64 { return s.lastLR }

// LastEpoch returns the number of Step calls so far (PyTorch's last_epoch).
func (s *LambdaLR) LastEpoch() int { return s.step }

// BaseLR returns the optimizer's learning rate when the scheduler was created.
func (s *LambdaLR) BaseLR() float64 { return s.baseLR }

type schedState struct {
	Name      string  `json:"name"`
	BaseLR    float64 `json:"base_lr"`
	LastEpoch int     `json:"last_epoch"`
	LastLR    float64 `json:"last_lr"`
}

// StateDict serialises the schedule name, base LR and step as JSON.
func (s *LambdaLR) StateDict() ([]byte, error) {
	return json.Marshal(schedState{Name: s.name, BaseLR: s.baseLR, LastEpoch: s.step, LastLR: s.lastLR})
}

// LoadStateDict restores a state saved by a scheduler of the same kind and sets the optimizer's
// learning rate for the restored step.
func (s *LambdaLR) LoadStateDict(b []byte) error {
	var st schedState
	if err := json.Unmarshal(b, &st); err != nil {
		return fmt.Errorf("optim: load %s scheduler state: %w", s.name, err)
	}
	if st.Name != s.name {
		return fmt.Errorf("optim: load %s scheduler state: the state was saved by a %q scheduler", s.name, st.Name)
	}
	if st.LastEpoch < 0 {
		return fmt.Errorf("optim: load %s scheduler state: negative step %d", s.name, st.LastEpoch)
	}
	s.baseLR, s.step = st.BaseLR, st.LastEpoch
	s.apply()
	return nil
}
