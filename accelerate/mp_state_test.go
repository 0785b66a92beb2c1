package accelerate

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	nl "github.com/goaccel/goaccel/notebook_launcher"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// Off-sync steps of Accumulate must leave each process with its own local
// gradient; the sync step must leave every process with the same average.
func TestGradientsSyncOnlyOnSyncSteps(t *testing.T) {
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{GradientAccumulationSteps: 2}), c)
		tensors.ManualSeed(1)
		var model nn.Module = nn.NewLinear(4, 1)
		loader := data.NewLoader(regression(), data.LoaderConfig{BatchSize: 8})
		acc.Prepare(&model, &loader)
		for step := 1; step <= 4 && loader.Next(); step++ {
			x, y := loader.Batch()
			acc.Accumulate(model, func() {
				acc.Backward(tensors.MSE(model.Forward(x), y))
			})
			g := model.Parameters()[0].Grad().Float32s()
			all, err := c.AllGatherBytes(float64Bytes(toF64(g)))
			must(err, "exchange gradients")
			same := reflect.DeepEqual(all[0], all[1])
			if acc.SyncGradients() != same {
				panic(fmt.Sprintf("step %d: sync=%t but gradients equal across ranks=%t", step, acc.SyncGradients(), same))
			}
			if acc.SyncGradients() {
				for _, p := range model.Parameters() {
					p.ZeroGrad()
				}
			}
		}
	})
}

func toF64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// stateRun trains one epoch, saves, trains a second epoch recording losses,
// then loads the checkpoint and repeats the second epoch.
func stateRun(acc *Accelerator, dir string) (after, resumed []float64, iteration int) {
	tensors.ManualSeed(5)
	var model nn.Module = nn.NewSequential(nn.NewLinear(4, 8), &nn.ReLU{}, nn.NewLinear(8, 1))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 0.01})
	var sched optim.Scheduler = optim.NewStepLR(opt, 3, 0.5)
	loader := data.NewLoader(regression(), data.LoaderConfig{BatchSize: 8, Shuffle: true, Seed: 9})
	acc.Prepare(&model, &opt, &loader, &sched)
	epoch := func() []float64 {
		var losses []float64
		for loader.Next() {
			x, y := loader.Batch()
			// Dropout-like noise from the default generator: the random state must be restored too.
			x = x.Add(tensors.Randn(x.Shape()...).To(x.Device()).MulScalar(0.01))
			loss := tensors.MSE(model.Forward(x), y)
			acc.Backward(loss)
			opt.Step()
			sched.Step()
			opt.ZeroGrad()
			losses = append(losses, acc.Reduce(loss.Detach(), "mean").Item())
		}
		return losses
	}
	epoch()
	if _, err := acc.SaveState(""); err != nil {
		panic(err)
	}
	after = epoch()
	// Scramble the model so only LoadState can bring it back.
	for _, p := range acc.UnwrapModel(model).Parameters() {
		p.Fill(0.3)
	}
	if err := acc.LoadState(""); err != nil {
		panic(err)
	}
	resumed = epoch()
	return after, resumed, acc.saveIteration
}

func TestLoadStateResumesWithTheSameLosses(t *testing.T) {
	dir := sharedDir(t)
	launch(t, 2, func() {
		c := group()
		acc := newWithComm(withCfg(Config{ProjectDir: filepath.Join(dir, "proj"), AutomaticCheckpointNaming: true, TotalLimit: 2}), c)
		after, resumed, it := stateRun(acc, dir)
		if c.Rank() == 0 {
			writeJSON(resultPath(dir, "losses"), []any{after, resumed, it})
		}
	})
	var got []any
	readJSON(t, resultPath(dir, "losses"), &got)
	after, resumed := fmt.Sprint(got[0]), fmt.Sprint(got[1])
	if after != resumed {
		t.Errorf("losses after LoadState differ from those after SaveState:\n saved run %s\n resumed   %s", after, resumed)
	}
	// LoadState restores the checkpoint iteration: the next automatic save is checkpoint_1.
	if it := got[2].(float64); it != 1 {
		t.Errorf("next automatic checkpoint number after LoadState = %v; want 1", it)
	}
}

// notebook_launcher's MixedPrecision must reach the Accelerator in every
// worker (Accelerate's notebook_launcher ignores it).
func TestLaunchMixedPrecisionReachesEveryAccelerator(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process test")
	}
	var out syncBuffer
	_, err := nl.Launch(func() {
		acc := New(Config{})
		if acc.MixedPrecision() != "bf16" || acc.NumProcesses() != 2 {
			panic(fmt.Sprintf("rank %d: precision %q, %d processes; want bf16 on 2", acc.ProcessIndex(), acc.MixedPrecision(), acc.NumProcesses()))
		}
		acc.EndTraining()
	}, nl.Options{NumProcesses: 2, MixedPrecision: "bf16", Args: []string{"-test.run=^" + t.Name() + "$"}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
}

// Several Accelerators in one worker share its process group (a notebook
// may create one per cell run); the group is left when the last one ends.
func TestAcceleratorsOfOneProcessShareTheGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("multi-process test")
	}
	var out syncBuffer
	_, err := nl.Launch(func() {
		a, b := New(Config{}), New(Config{GradientAccumulationSteps: 2})
		if a.c != b.c {
			panic("two Accelerators joined two groups")
		}
		a.EndTraining()
		b.WaitForEveryone() // still connected
		b.EndTraining()
		c := New(Config{}) // a fresh group after the last one left
		c.WaitForEveryone()
		c.EndTraining()
	}, nl.Options{NumProcesses: 2, Args: []string{"-test.run=^" + t.Name() + "$"}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
