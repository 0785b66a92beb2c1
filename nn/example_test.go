package nn_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// Net is a model written the way a notebook cell writes one: a struct with the three Module methods.
type Net struct {
	FC1, FC2 *nn.Linear
}

func (n *Net) Forward(x *tensors.Tensor) *tensors.Tensor {
	return n.FC2.Forward(n.FC1.Forward(x).ReLU())
}

func (n *Net) Parameters() []*tensors.Tensor { return nn.ParametersOf(n) }

func (n *Net) NamedParameters() []nn.NamedParameter {
	return append(nn.Prefixed("fc1", n.FC1), nn.Prefixed("fc2", n.FC2)...)
}

func ExampleModule() {
	tensors.ManualSeed(0)
	var model nn.Module = &Net{FC1: nn.NewLinear(4, 8), FC2: nn.NewLinear(8, 2)}
	for _, p := range model.NamedParameters() {
		fmt.Println(p.Name, p.Param.Shape())
	}
	fmt.Println("output", model.Forward(tensors.Zeros(3, 4)).Shape())
	fmt.Println("parameters", nn.NumParameters(model))
	// Output:
	// fc1.weight [8 4]
	// fc1.bias [8]
	// fc2.weight [2 8]
	// fc2.bias [2]
	// output [3 2]
	// parameters 58
}

// A full training loop: data, model, optimizer, scheduler, evaluation.
func Example_trainingLoop() {
	tensors.ManualSeed(1)
	// Two classes: is x0 + x1 positive?
	x := tensors.NewGenerator(7).Randn(512, 2)
	xs := x.Float32s()
	labels := make([]int64, 512)
	for i := range labels {
		if xs[2*i]+xs[2*i+1] > 0 {
			labels[i] = 1
		}
	}
	ds := data.NewTensorDataset(x, tensors.FromInt64(labels, 512))
	loader := data.NewLoader(ds, data.LoaderConfig{BatchSize: 64, Shuffle: true, Seed: 3})

	model := nn.NewSequential(nn.NewLinear(2, 16), nn.Tanh{}, nn.NewLinear(16, 2))
	opt := optim.NewAdamW(model.Parameters(), optim.AdamConfig{LR: 0.05, WeightDecay: 0.01})
	sched := optim.NewCosineScheduleWithWarmup(opt, 8, 10*loader.Len())
	for epoch := 0; epoch < 10; epoch++ {
		for loader.Next() {
			xb, yb := loader.Batch()
			loss := nn.CrossEntropy(model.Forward(xb), yb)
			loss.Backward()
			opt.Step()
			sched.Step()
			opt.ZeroGrad()
		}
	}

	nn.SetTraining(model, false)
	correct := 0
	tensors.NoGrad(func() {
		pred := model.Forward(x).ArgMax(1, false).Int64s()
		for i, p := range pred {
			if p == labels[i] {
				correct++
			}
		}
	})
	fmt.Println("steps:", 10*loader.Len())
	fmt.Println("accuracy above 95%:", correct > 512*95/100)
	// Output:
	// steps: 80
	// accuracy above 95%: true
}

func ExampleSaveSafetensors() {
	tensors.ManualSeed(0)
	model := nn.NewSequential(nn.NewLinear(3, 4), nn.ReLU{}, nn.NewLinear(4, 1))
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.safetensors")
	if err := nn.SaveSafetensors(path, nn.StateDict(model), map[string]string{"format": "pt"}); err != nil {
		fmt.Println(err)
		return
	}

	sd, err := nn.LoadSafetensors(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	keys := make([]string, 0, len(sd))
	for k := range sd {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(keys)
	fresh := nn.NewSequential(nn.NewLinear(3, 4), nn.ReLU{}, nn.NewLinear(4, 1))
	fmt.Println("load:", nn.LoadStateDict(fresh, sd))
	wrong := nn.NewSequential(nn.NewLinear(3, 5), nn.ReLU{}, nn.NewLinear(5, 1))
	fmt.Println("load:", nn.LoadStateDict(wrong, sd))
	// Output:
	// [0.bias 0.weight 2.bias 2.weight]
	// load: <nil>
	// load: nn: load state dict into *nn.Sequential: shape mismatch: 0.weight: checkpoint [4 3], model [5 3]; 0.bias: checkpoint [4], model [5]; 2.weight: checkpoint [1 4], model [1 5]
}

// A cell's model with batch normalisation: its running statistics are buffers, saved in the
// state dict under PyTorch's names without a method of the model's; evaluation mode uses them.
// ConvertSyncBatchNorm makes the layers normalise over every process of a prepared model.
func ExampleBatchNorm2d() {
	tensors.ManualSeed(0)
	type block struct {
		Conv *nn.Conv2d
		BN   *nn.BatchNorm2d
	}
	b := &block{Conv: nn.NewConv2d(1, 4, 3, 1, 1), BN: nn.NewBatchNorm2d(4)}
	model := nn.NewSequential(b.Conv, b.BN, nn.ReLU{}, nn.AdaptiveAvgPool2d{H: 1, W: 1}, nn.Flatten{})
	model.Forward(tensors.Randn(8, 1, 5, 5)) // training: batch statistics, running ones updated
	keys := []string{}
	for k := range nn.StateDict(model) {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Println(keys)
	nn.SetTraining(model, false) // evaluation: the running statistics
	fmt.Println(model.Forward(tensors.Randn(2, 1, 5, 5)).Shape(), b.BN.NumBatchesTracked.Item())
	nn.ConvertSyncBatchNorm(model)
	// Output:
	// [0.bias 0.weight 1.bias 1.num_batches_tracked 1.running_mean 1.running_var 1.weight]
	// [2 4] 1
}
