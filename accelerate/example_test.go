package accelerate_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/goaccel/goaccel/accelerate"
	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// A training loop with gradient accumulation. Run on one process it steps the
// optimizer every second batch; under notebook_launcher.Launch or
// `goaccel launch` the same code trains data-parallel.
func ExampleAccelerator_Accumulate() {
	accelerate.SetSeed(0, false)
	acc := accelerate.New(accelerate.Config{GradientAccumulationSteps: 2})
	x := tensors.Randn(64, 3)
	y := x.MatMul(tensors.New([]float32{2, -1, 0.5}, 3, 1))
	var model nn.Module = nn.NewLinear(3, 1)
	var opt optim.Optimizer = optim.NewSGD(model.Parameters(), optim.SGDConfig{LR: 0.1})
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 8, Shuffle: true})
	acc.Prepare(&model, &opt, &loader)
	syncs := 0
	var loss *tensors.Tensor
	for epoch := 0; epoch < 20; epoch++ {
		for loader.Next() {
			xb, yb := loader.Batch()
			acc.Accumulate(model, func() {
				loss = tensors.MSE(model.Forward(xb), yb)
				acc.Backward(loss)
				if acc.SyncGradients() {
					syncs++
				}
				opt.Step()
				opt.ZeroGrad()
			})
		}
	}
	acc.Print("optimizer steps:", syncs)
	acc.Print("loss below 0.01:", loss.Item() < 0.01)
	// Output:
	// optimizer steps: 80
	// loss below 0.01: true
}

// GatherForMetrics returns exactly one prediction per evaluation sample, even
// when the last batches were padded to keep processes in step.
func ExampleAccelerator_GatherForMetrics() {
	acc := accelerate.New(accelerate.Config{})
	ds := data.NewTensorDataset(tensors.Arange(0, 10, 1).Reshape(10, 1), nil)
	loader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 4})
	acc.Prepare(&loader)
	n := 0
	for loader.Next() {
		x, _ := loader.Batch()
		n += acc.GatherForMetrics(x).Size(0)
	}
	fmt.Println("samples:", n)
	// Output: samples: 10
}

func ExampleAccelerator_SplitBetweenProcesses() {
	acc := accelerate.New(accelerate.Config{})
	prompts := []string{"a", "b", "c"}
	start, end := acc.SplitBetweenProcesses(len(prompts))
	fmt.Println(prompts[start:end])
	// Output: [a b c]
}

// SaveState writes Accelerate's checkpoint layout; with automatic naming the
// folders are numbered and LoadState("") resumes from the latest one.
func ExampleAccelerator_SaveState() {
	dir, _ := os.MkdirTemp("", "ckpt")
	defer os.RemoveAll(dir)
	acc := accelerate.New(accelerate.Config{ProjectDir: dir, AutomaticCheckpointNaming: true, TotalLimit: 2})
	var model nn.Module = nn.NewLinear(4, 2)
	var opt optim.Optimizer = optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 1e-3})
	acc.Prepare(&model, &opt)
	for i := 0; i < 3; i++ {
		if _, err := acc.SaveState(""); err != nil {
			fmt.Println(err)
		}
	}
	kept, _ := os.ReadDir(filepath.Join(dir, "checkpoints"))
	for _, k := range kept {
		files, _ := os.ReadDir(filepath.Join(dir, "checkpoints", k.Name()))
		var names []string
		for _, f := range files {
			names = append(names, f.Name())
		}
		fmt.Println(k.Name(), names)
	}
	fmt.Println(acc.LoadState("") == nil)
	// Output:
	// checkpoint_1 [goaccel_manifest.json goaccel_state.json model.safetensors optimizer.bin random_states_0.json]
	// checkpoint_2 [goaccel_manifest.json goaccel_state.json model.safetensors optimizer.bin random_states_0.json]
	// true
}
