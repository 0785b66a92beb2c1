package accelerate

import (
	"strings"
	"testing"
	"time"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// resumeRun is a small training run whose loop resumes by itself, as the
// README's example writes it; it returns the final weights and the indices
// of the batches it trained on.
func resumeRun(t *testing.T, dir string, stopAfter int) (weights []float32, seen [][]int) {
	t.Helper()
	tensors.ManualSeed(5)
	a := New(Config{ProjectDir: dir, AutomaticCheckpointNaming: true})
	g := tensors.NewGenerator(1)
	x := g.Randn(40, 3)
	y := x.MatMul(g.Randn(3, 1))
	var model nn.Module = nn.NewSequential(nn.NewLinear(3, 4), nn.NewDropout(0.2), nn.NewLinear(4, 1))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-2})
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 4, Shuffle: true, Seed: 9})
	a.Prepare(&model, &opt, &loader)
	steps := 0
	for epoch := loader.Epoch(); epoch < 3; epoch++ {
		for loader.Next() {
			xb, yb := loader.Batch()
			a.Backward(tensors.MSE(model.Forward(xb), yb))
			opt.Step()
			opt.ZeroGrad()
			seen = append(seen, loader.Indices())
			if steps++; steps == stopAfter {
				if _, err := a.SaveState(""); err != nil {
					t.Fatal(err)
				}
				return nil, seen
			}
		}
	}
	for _, p := range model.Parameters() {
		weights = append(weights, p.Float32s()...)
	}
	return weights, seen
}

// A run saved mid-epoch (step 13 of 10 a pass) and resumed by Prepare,
// as a restarted or --resume'd worker does, trains on the batches the
// uninterrupted run trained on after that step and ends with its weights,
// bit for bit; the optimizer step count comes back with the checkpoint.
func TestPrepareResumesMidEpochWhenTheLauncherAsks(t *testing.T) {
	want, all := resumeRun(t, t.TempDir(), -1)
	dir := t.TempDir()
	_, before := resumeRun(t, dir, 13)
	t.Setenv(workerinfo.EnvResume, workerinfo.ResumeLatest)
	got, after := resumeRun(t, dir, -1)
	if len(before)+len(after) != len(all) {
		t.Fatalf("%d batches before the checkpoint and %d after; the uninterrupted run had %d", len(before), len(after), len(all))
	}
	for i, b := range after {
		if !equalInts(b, all[len(before)+i]) {
			t.Fatalf("batch %d after resuming is %v; the uninterrupted run's was %v", i, b, all[len(before)+i])
		}
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("weight %d: resumed %v, uninterrupted %v", i, got[i], want[i])
		}
	}
}

// --resume without a checkpoint is an error that says what to do; a
// restarted group without one starts over.
func TestResumeWithoutACheckpoint(t *testing.T) {
	t.Setenv(workerinfo.EnvResume, workerinfo.ResumeLatest)
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "no checkpoint under") {
				t.Errorf("--resume with no checkpoint: %v; want a panic saying there is none", r)
			}
		}()
		resumeRun(t, t.TempDir(), -1)
	}()
	t.Setenv(workerinfo.EnvResume, workerinfo.ResumeRestart)
	if w, _ := resumeRun(t, t.TempDir(), -1); len(w) == 0 {
		t.Error("a restart with no checkpoint did not train")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The ranks agree on a stop at the first boundary, then about every
// checkInterval of training at the pace they see (at most maxCheckEvery
// batches apart), the interval the all-reduce agreed on.
func TestStopChecksComeAboutEveryIntervalOfTraining(t *testing.T) {
	var c stopCheck
	t0 := time.Unix(100, 0)
	if !c.due() || c.proposal(t0) != 1 {
		t.Fatal("the first boundary is not checked at once")
	}
	c.agreed(1, t0)
	if !c.due() {
		t.Fatal("the second boundary is not checked after an interval of 1")
	}
	// 1 batch in 10 ms: about 10 batches make an interval.
	if p := c.proposal(t0.Add(10 * time.Millisecond)); p != float32(checkInterval/(10*time.Millisecond)) {
		t.Fatalf("proposal at 10 ms a batch = %v", p)
	}
	c.agreed(10, t0.Add(10*time.Millisecond))
	checked := 0
	for i := 0; i < 30; i++ {
		if c.due() {
			checked++
			c.agreed(10, t0)
		}
	}
	if checked != 3 {
		t.Errorf("%d checks in 30 boundaries at an interval of 10; want 3", checked)
	}
	if p := c.proposal(t0.Add(time.Nanosecond)); p != maxCheckEvery {
		t.Errorf("proposal at a fast pace = %v; want the cap %d", p, maxCheckEvery)
	}
}
