package accelerate

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// triggerResult is what each rank saw of SetTrigger/CheckTrigger.
type triggerResult struct {
	StoppedAt int
	After     bool // CheckTrigger once more after the stop
}

// One rank raises the trigger (a NaN loss, say) at step 3; CheckTrigger is true on both ranks
// at that step, and false at the next check.
func TestCheckTriggerStopsEveryProcess(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{}), c)
		r := triggerResult{StoppedAt: -1}
		for step := range 10 {
			if c.Rank() == 1 && step == 3 {
				acc.SetTrigger()
			}
			if acc.CheckTrigger() {
				r.StoppedAt = step
				break
			}
		}
		r.After = acc.CheckTrigger()
		writeJSON(resultPath(dir, fmt.Sprint("trigger", c.Rank())), r)
	})
	for i := range 2 {
		var r triggerResult
		readJSON(t, resultPath(dir, fmt.Sprint("trigger", i)), &r)
		if r.StoppedAt != 3 || r.After {
			t.Errorf("rank %d: stopped at %d, CheckTrigger after %v; want 3 and false", i, r.StoppedAt, r.After)
		}
	}
}

// joinResult is what each rank of the join test reports.
type joinResult struct {
	Batches int
	Params  []float32
}

// joinLoop trains a linear model with plain SGD on 10 samples, batches of 2, over 2 processes
// with even batches off inside JoinUnevenInputs: rank 0 gets 3 batches, rank 1 two.
func joinLoop(acc *Accelerator) joinResult {
	tensors.ManualSeed(5)
	var model nn.Module = nn.NewLinear(4, 1)
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.1})
	ds := data.NewTensorDataset(tensors.NewGenerator(9).Randn(10, 4), tensors.NewGenerator(10).Randn(10, 1))
	loader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 2})
	acc.Prepare(&model, &opt, &loader)
	var r joinResult
	acc.JoinUnevenInputs(Off, func() {
		for loader.Next() {
			x, y := loader.Batch()
			acc.Backward(tensors.MSE(model.Forward(x), y))
			opt.Step()
			opt.ZeroGrad()
			r.Batches++
		}
	})
	r.Params = slices.Concat(acc.GetStateDict(model)["weight"].Float32s(), acc.GetStateDict(model)["bias"].Float32s())
	return r
}

// joinReference is the same training on one process: each step's gradient is the mean of the
// two ranks' batch gradients, with zeros for a rank that has joined (PyTorch's Join divides by
// the initial world size).
func joinReference() []float32 {
	tensors.ManualSeed(5)
	lin := nn.NewLinear(4, 1)
	x, y := tensors.NewGenerator(9).Randn(10, 4), tensors.NewGenerator(10).Randn(10, 1)
	batch := func(i int) (*tensors.Tensor, *tensors.Tensor) { return x.Slice(0, 2*i, 2*i+2), y.Slice(0, 2*i, 2*i+2) }
	opt := optim.NewSGD(lin.Parameters(), optim.SGDConfig{LR: 0.1})
	for _, round := range [][]int{{0, 1}, {2, 3}, {4}} { // global batch i goes to rank i % 2
		var loss *tensors.Tensor
		for _, i := range round {
			bx, by := batch(i)
			l := tensors.MSE(lin.Forward(bx), by).DivScalar(2)
			if loss == nil {
				loss = l
			} else {
				loss = loss.Add(l)
			}
		}
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
	}
	return slices.Concat(lin.Weight.Float32s(), lin.Bias.Float32s())
}

// TestJoinUnevenInputsShadowsTheJoinedProcess: with even batches off, rank 0 trains a third
// step that rank 1 has no batch for. Inside JoinUnevenInputs rank 1 shadows that step's
// gradient all-reduce instead of leaving rank 0 alone in it (without it, the group finds rank
// 0's all-reduce facing rank 1's barrier, or times out: 20 s here), and both end with rank 0's parameters, which
// are the one-process reference's.
func TestJoinUnevenInputsShadowsTheJoinedProcess(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{InitProcessGroup: InitProcessGroupKwargs{Timeout: 20 * time.Second}}), c)
		writeJSON(resultPath(dir, fmt.Sprint("join", c.Rank())), joinLoop(acc))
	})
	want := joinReference()
	for i, batches := range []int{3, 2} {
		var r joinResult
		readJSON(t, resultPath(dir, fmt.Sprint("join", i)), &r)
		if r.Batches != batches {
			t.Errorf("rank %d trained on %d batches; want %d", i, r.Batches, batches)
		}
		for j := range want {
			if d := r.Params[j] - want[j]; d > 1e-5 || d < -1e-5 {
				t.Errorf("rank %d: parameters %v; want the reference's %v", i, r.Params, want)
				break
			}
		}
	}
}
