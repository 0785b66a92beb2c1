package nn

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	_ "github.com/goaccel/goaccel/cuda" // the GPU, when the machine has one
	"github.com/goaccel/goaccel/tensors"
	_ "github.com/goaccel/goaccel/tensors/backend/sim" // the simulated devices
)

// layerDevices are the devices the layer fixtures run on: the CPU, the strict simulated devices
// (core-only, whose pooling and optimizer steps are composed, and with every fused kernel), and
// the GPU when there is one; GOACCEL_TEST_DEVICES (e.g. "cuda") keeps only the named types.
var layerDevices = func() []tensors.Device {
	all := []tensors.Device{tensors.CPU, {Type: "sim"}, {Type: "simfused"}}
	if tensors.DeviceCount("cuda") > 0 {
		all = append(all, tensors.CUDA(0))
	}
	want := os.Getenv("GOACCEL_TEST_DEVICES")
	if want == "" {
		return all
	}
	var out []tensors.Device
	for _, d := range all {
		if slices.Contains(strings.Split(want, ","), d.Type) {
			out = append(out, d)
		}
	}
	return out
}()

type layersFixture struct {
	Models []struct {
		Name       string
		Keys       []string
		Steps      int
		LR         float64
		Inputs     [][]float32
		InputShape []int `json:"input_shape"`
		Targets    [][]int64
		Losses     []float64
		Grads      map[string][]float32
		State      map[string][]float32
		EvalInput  []float32 `json:"eval_input"`
		EvalOutput []float32 `json:"eval_output"`
		EvalShape  []int     `json:"eval_shape"`
	}
}

// The architectures of gen_layers.py.
var layerModels = map[string]func() Module{
	"cnn": func() Module {
		return NewSequential(
			NewConv2d(2, 4, 3, 1, 1), NewBatchNorm2d(4), ReLU{}, AvgPool2d{Kernel: 2},
			NewConv2d(4, 6, 3, 1, 1), NewGroupNorm(2, 6), ReLU{},
			AvgPool2d{Kernel: 3, AvgPool2dOptions: tensors.AvgPool2dOptions{Stride: 1, Padding: 1, ExcludePad: true}},
			AdaptiveAvgPool2d{H: 1, W: 1}, Flatten{},
			NewLinear(6, 8), NewBatchNorm1d(8), ReLU{}, NewRMSNorm(8), NewLinear(8, 3))
	},
	"bn_variants": func() Module {
		return NewSequential(NewLinear(5, 4),
			NewBatchNorm1dWith(4, BatchNormConfig{CumulativeAverage: true}),
			NewBatchNorm1dWith(4, BatchNormConfig{NoAffine: true, Eps: 1e-3}),
			NewBatchNorm1dWith(4, BatchNormConfig{NoRunningStats: true, Momentum: 0.3}),
			NewLinear(4, 3))
	},
}

// TestNormAndPoolLayersTrainAsPyTorch replays gen_layers.py on every device: BatchNorm2d,
// BatchNorm1d (momentum None, no affine, no running statistics), GroupNorm, RMSNorm, AvgPool2d
// and AdaptiveAvgPool2d in a model trained three SGD steps from PyTorch's initial state: each
// step's loss, the first step's gradients, the final parameters and running statistics (and
// num_batches_tracked), and the outputs in evaluation mode.
func TestNormAndPoolLayersTrainAsPyTorch(t *testing.T) {
	b, err := os.ReadFile("testdata/layers.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx layersFixture
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	if len(layerDevices) == 0 {
		t.Fatalf("GOACCEL_TEST_DEVICES=%s names no device this machine has", os.Getenv("GOACCEL_TEST_DEVICES"))
	}
	for _, d := range layerDevices {
		for _, c := range fx.Models {
			t.Run(d.String()+"/"+c.Name, func(t *testing.T) {
				m := layerModels[c.Name]()
				sd, err := LoadSafetensors("testdata/layers_" + c.Name + ".safetensors")
				if err != nil {
					t.Fatal(err)
				}
				if err := LoadStateDict(m, sd); err != nil {
					t.Fatal(err)
				}
				keys := make([]string, 0, len(StateDict(m)))
				for k := range StateDict(m) {
					keys = append(keys, k)
				}
				want := slices.Clone(c.Keys)
				sort.Strings(keys)
				sort.Strings(want)
				if !slices.Equal(keys, want) {
					t.Fatalf("state dict keys %v, PyTorch %v", keys, want)
				}
				// Gradients that cancel to nearly zero (a bias followed by a normalisation, which removes
				// any shift) carry the rounding of the sums: compare them at the model's gradient scale.
				scale := 0.0
				for _, g := range c.Grads {
					for _, v := range g {
						scale = max(scale, float64(v), -float64(v))
					}
				}
				MoveTo(m, d)
				SetTraining(m, true)
				for s := range c.Steps {
					x := tensors.New(c.Inputs[s], c.InputShape...).To(d)
					y := tensors.FromInt64(c.Targets[s], len(c.Targets[s])).To(d)
					loss := CrossEntropy(m.Forward(x), y)
					loss.Backward()
					if got := loss.Item(); got-c.Losses[s] > 1e-5 || c.Losses[s]-got > 1e-5 {
						t.Fatalf("step %d: loss %.8g, PyTorch %.8g", s, got, c.Losses[s])
					}
					tensors.NoGrad(func() {
						for _, p := range m.NamedParameters() {
							if s == 0 {
								closeAll(t, "grad of "+p.Name, p.Param.Grad().Float32s(), c.Grads[p.Name], 1e-4, 1e-4*scale)
							}
							p.Param.CopyFrom(p.Param.Sub(p.Param.Grad().MulScalar(c.LR)))
							p.Param.ZeroGrad()
						}
					})
				}
				for k, v := range StateDict(m) {
					closeAll(t, k, v.Float32s(), c.State[k], 1e-4, 1e-5)
				}
				SetTraining(m, false)
				var out *tensors.Tensor
				tensors.NoGrad(func() { out = m.Forward(tensors.New(c.EvalInput, c.InputShape...).To(d)) })
				if !slices.Equal(out.Shape(), c.EvalShape) {
					t.Fatalf("eval output shape %v, PyTorch %v", out.Shape(), c.EvalShape)
				}
				closeAll(t, "eval output", out.Float32s(), c.EvalOutput, 1e-4, 1e-5)
			})
		}
	}
}
