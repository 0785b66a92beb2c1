package accelerate_test

import (
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// The tensorboard tracker writes an event file per run under LoggingDir (ProjectDir/logs by
// default): `tensorboard --logdir ProjectDir/logs` shows its scalars, images, text and
// hyper-parameters. The mlflow tracker writes ProjectDir/logs/mlruns, or to the server
// MLFLOW_TRACKING_URI names.
func ExampleConfig_tensorboard() {
	dir, _ := os.MkdirTemp("", "runs")
	defer os.RemoveAll(dir)
	acc := accelerate.New(accelerate.Config{ProjectDir: dir, LogWith: []string{"tensorboard"}})
	if err := acc.InitTrackers("mnist", map[string]any{"lr": 1e-3, "batch_size": 128}); err != nil {
		panic(err)
	}
	for step := range 3 {
		acc.Log(map[string]float64{"loss": 1 / float64(step+1)}, step)
	}
	acc.LogImages(map[string]image.Image{"samples": image.NewGray(image.Rect(0, 0, 28, 28))}, 2)
	acc.LogText(map[string]string{"notes": "first **run**"}, 2)
	acc.EndTraining()
	events, _ := filepath.Glob(filepath.Join(dir, "logs", "mnist", "events.out.tfevents.*"))
	_, err := os.Stat(filepath.Join(dir, "logs", "mnist", "hparams.yml"))
	fmt.Println("event files:", len(events), "hparams.yml:", err == nil)
	// Output: event files: 1 hparams.yml: true
}

// Profile records where the time of a few steps goes: the table of top ops (shown under the
// cell in a notebook) and, with OutputTraceDir, a Chrome trace per process for Perfetto.
func ExampleAccelerator_Profile() {
	acc := accelerate.New(accelerate.Config{})
	var model nn.Module = nn.NewSequential(nn.NewLinear(16, 32), nn.ReLU{}, nn.NewLinear(32, 1))
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3})
	acc.Prepare(&model, &opt)
	dir, _ := os.MkdirTemp("", "trace")
	defer os.RemoveAll(dir)
	res := acc.Profile(accelerate.ProfileKwargs{OutputTraceDir: dir}, func() {
		for range 5 {
			loss := tensors.MSE(model.Forward(tensors.Ones(8, 16)), tensors.Zeros(8, 1))
			acc.Backward(loss)
			opt.Step()
			opt.ZeroGrad()
		}
	})
	calls := map[string]int{}
	for _, r := range res.Rows() {
		calls[r.Name] = r.Calls
	}
	fmt.Println("Linear:", calls["Linear"], "LinearBackward:", calls["LinearBackward"], "AdamStep:", calls["AdamStep"])
	fmt.Println("trace:", filepath.Base(res.TracePath))
	fmt.Println(strings.Fields(res.Table())[0])
	// Output:
	// Linear: 10 LinearBackward: 10 AdamStep: 5
	// trace: profile_0.json
	// rank
}

// FindExecutableBatchSize retries with a smaller batch each time the function runs out of
// device memory (here a function that pretends a GPU holds at most 100 samples).
func ExampleFindExecutableBatchSize() {
	bs, err := accelerate.FindExecutableBatchSize(128, func(batchSize int) error {
		if batchSize > 100 {
			panic(fmt.Errorf("allocate %d samples on cuda:0: %w", batchSize, tensors.ErrOutOfMemory))
		}
		fmt.Println("training with batch size", batchSize)
		return nil
	})
	fmt.Println(bs, err)
	// Output:
	// training with batch size 92
	// 92 <nil>
}

// One process that finds a NaN loss stops every process at the same step.
func ExampleAccelerator_CheckTrigger() {
	acc := accelerate.New(accelerate.Config{})
	losses := []float64{0.9, 0.7, math.NaN(), 0.5}
	for step, loss := range losses {
		if math.IsNaN(loss) {
			acc.SetTrigger()
		}
		if acc.CheckTrigger() {
			fmt.Println("stopped at step", step)
			break
		}
	}
	// Output: stopped at step 2
}

// A save pre-hook writes a file of its own into the checkpoint, and the matching load hook
// reads it back.
func ExampleAccelerator_RegisterSaveStatePreHook() {
	acc := accelerate.New(accelerate.Config{})
	var model nn.Module = nn.NewLinear(2, 2)
	acc.Prepare(&model)
	acc.RegisterSaveStatePreHook(func(models []nn.Module, weights []map[string]*tensors.Tensor, dir string) error {
		return os.WriteFile(filepath.Join(dir, "labels.txt"), []byte("cat dog"), 0o644)
	})
	acc.RegisterLoadStatePreHook(func(models []nn.Module, dir string) error {
		b, err := os.ReadFile(filepath.Join(dir, "labels.txt"))
		fmt.Println("labels:", string(b))
		return err
	})
	dir, _ := os.MkdirTemp("", "ckpt")
	defer os.RemoveAll(dir)
	if _, err := acc.SaveState(filepath.Join(dir, "step_10")); err != nil {
		panic(err)
	}
	if err := acc.LoadState(filepath.Join(dir, "step_10")); err != nil {
		panic(err)
	}
	fmt.Println("weights:", len(acc.GetStateDict(model)))
	// Output:
	// labels: cat dog
	// weights: 2
}

// A wrong tracker name is refused with the ones goaccel has.
func ExampleConfig_logWith() {
	defer func() { fmt.Println(strings.SplitN(fmt.Sprint(recover()), ";", 2)[0]) }()
	accelerate.New(accelerate.Config{LogWith: []string{"wandb"}})
	// Output: accelerate: Config.LogWith names "wandb", Accelerate's Weights & Biases tracker, which goaccel does not have (it logs through that service's Python client)
}

// JoinUnevenInputs lets processes with different numbers of batches (EvenBatches off) train
// to the end together; on one process it just runs the loop.
func ExampleAccelerator_JoinUnevenInputs() {
	acc := accelerate.New(accelerate.Config{})
	var model nn.Module = nn.NewLinear(4, 1)
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.1})
	acc.Prepare(&model, &opt)
	steps := 0
	acc.JoinUnevenInputs(accelerate.Off, func() {
		for range 3 {
			acc.Backward(tensors.MSE(model.Forward(tensors.Ones(2, 4)), tensors.Zeros(2, 1)))
			opt.Step()
			opt.ZeroGrad()
			steps++
		}
	})
	fmt.Println("steps:", steps)
	// Output: steps: 3
}

// FreeMemory lets the Accelerator forget one training's model before the next.
func ExampleAccelerator_FreeMemory() {
	acc := accelerate.New(accelerate.Config{})
	var model nn.Module = nn.NewLinear(512, 512)
	acc.Prepare(&model)
	acc.FreeMemory()
	model = nil // and drop your own references
	var next nn.Module = nn.NewLinear(4, 1)
	acc.Prepare(&next)
	fmt.Println(model == nil, len(acc.GetStateDict(next)))
	// Output: true 2
}
