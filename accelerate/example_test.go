package accelerate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

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

// Evaluation gathers predictions and labels in one call; on every process the
// two stay aligned and hold each evaluation sample exactly once.
func ExampleAccelerator_GatherForMetricsAll() {
	acc := accelerate.New(accelerate.Config{})
	x := tensors.Arange(0, 10, 1).Reshape(10, 1)
	y := tensors.FromInt64([]int64{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}, 10)
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 4})
	acc.Prepare(&loader)
	correct, total := 0, 0
	for loader.Next() {
		xb, yb := loader.Batch()
		preds := tensors.FromInt64([]int64{0, 1, 0, 0}[:xb.Size(0)], xb.Size(0)) // stands for model.Forward(xb).ArgMax(1, false)
		g := acc.GatherForMetricsAll(preds, yb)
		p, l := g[0].Int64s(), g[1].Int64s()
		for i := range p {
			if p[i] == l[i] {
				correct++
			}
			total++
		}
	}
	acc.Print("accuracy:", correct, "of", total)
	// Output: accuracy: 8 of 10
}

// Clip each gradient to [−1, 1] between Backward and the optimizer step.
func ExampleAccelerator_ClipGradValue() {
	acc := accelerate.New(accelerate.Config{})
	w := tensors.Zeros(3).SetRequiresGrad(true)
	var opt optim.Optimizer = optim.NewSGD([]*tensors.Tensor{w}, optim.SGDConfig{LR: 0.1})
	acc.Prepare(&opt)
	loss := w.Mul(tensors.New([]float32{5, -0.5, -2}, 3)).Sum()
	acc.Backward(loss)
	acc.ClipGradValue(opt.Params(), 1)
	fmt.Println("clipped gradient:", w.Grad().Float32s())
	opt.Step()
	// Output: clipped gradient: [1 -0.5 -1]
}

// Autocast is `with accelerator.autocast():` for work outside the prepared
// model, here a projection head: with bf16 its matrix product rounds its
// operands to bfloat16 (1 + 2⁻⁸ becomes 1) and accumulates in float32.
func ExampleAccelerator_Autocast() {
	acc := accelerate.New(accelerate.Config{MixedPrecision: "bf16"})
	features := tensors.New([]float32{1.00390625, 1}, 1, 2)
	head := tensors.New([]float32{1, 1}, 2, 1)
	var out *tensors.Tensor
	acc.Autocast(func() { out = features.MatMul(head) })
	fmt.Println(out.DType(), out.Float32s(), "outside:", features.MatMul(head).Float32s())
	// Output: float32 [2] outside: [2.0039062]
}

// The model-export idiom: every process finishes, then the main process alone
// saves the unwrapped model (SaveModel does both checks itself).
func ExampleAccelerator_UnwrapModel() {
	dir, _ := os.MkdirTemp("", "export")
	defer os.RemoveAll(dir)
	acc := accelerate.New(accelerate.Config{})
	var model nn.Module = nn.NewSequential(nn.NewLinear(4, 2))
	acc.Prepare(&model)
	// … training …
	acc.WaitForEveryone()
	if acc.IsMainProcess() {
		path := filepath.Join(dir, "model.safetensors")
		if err := nn.SaveSafetensors(path, nn.StateDict(acc.UnwrapModel(model)), nil); err != nil {
			fmt.Println(err)
		}
		sd, _ := nn.LoadSafetensors(path)
		fmt.Println(len(sd), "tensors, e.g. 0.weight", sd["0.weight"].Shape())
	}
	// Output: 2 tensors, e.g. 0.weight [2 4]
}

// SetSeed before building the model and the loaders makes every process start
// from the same weights and shuffle order (deviceSpecific true gives each
// process seed + rank instead, for per-process randomness such as dropout).
func ExampleSetSeed() {
	accelerate.SetSeed(42, false)
	a := nn.NewLinear(2, 2).Weight.Float32s()
	accelerate.SetSeed(42, false)
	b := nn.NewLinear(2, 2).Weight.Float32s()
	fmt.Println("same weights:", fmt.Sprint(a) == fmt.Sprint(b))
	// Output: same weights: true
}

// Accelerate's kwargs handlers are fields of Config:
// DistributedDataParallelKwargs(bucket_cap_mb=50),
// GradScalerKwargs(init_scale=1024, growth_interval=500) and
// InitProcessGroupKwargs(timeout=timedelta(hours=2)).
func ExampleConfig() {
	acc := accelerate.New(accelerate.Config{
		MixedPrecision:   "fp16",
		DDP:              accelerate.DistributedDataParallelKwargs{BucketCapMB: 50},
		GradScaler:       accelerate.GradScalerKwargs{InitScale: 1024, GrowthInterval: 500},
		InitProcessGroup: accelerate.InitProcessGroupKwargs{Timeout: 2 * time.Hour},
	})
	fmt.Println(acc.MixedPrecision())
	// Output: fp16
}
