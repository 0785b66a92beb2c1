package nn

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/goaccel/goaccel/tensors"
)

type modelsFixture struct {
	Torch  string
	Models []struct {
		Name        string
		LossKind    string `json:"loss_kind"`
		Keys        []string
		InputShape  []int     `json:"input_shape"`
		Input       []float32 `json:"input"`
		InputInt    []int64   `json:"input_int"`
		OutputShape []int     `json:"output_shape"`
		Output      []float32
		Loss        float64
		Grads       map[string][]float32
		TargetInt   []int64   `json:"target_int"`
		Target      []float32 `json:"target"`
		TargetShape []int     `json:"target_shape"`
	}
	Init map[string]map[string]struct{ Mean, Std, Absmax float64 }
}

func loadModels(t *testing.T) *modelsFixture {
	t.Helper()
	b, err := os.ReadFile("testdata/models.json")
	if err != nil {
		t.Fatal(err)
	}
	var f modelsFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return &f
}

// The same architectures as gen_nn.py builds with torch.nn.
var fixtureModels = map[string]func() Module{
	"mlp": func() Module {
		return NewSequential(NewLinear(6, 5), ReLU{}, NewDropout(0.5), NewLinear(5, 4), Tanh{}, NewLinear(4, 3))
	},
	"cnn": func() Module {
		return NewSequential(NewConv2d(2, 3, 3, 1, 1), ReLU{}, NewMaxPool2d(2), NewConv2d(3, 4, 3, 2, 1), GELU{}, Flatten{}, NewLinear(16, 3))
	},
	"emb": func() Module { return NewSequential(NewEmbedding(10, 6), NewLayerNorm(6), NewLinear(6, 4)) },
}

func closeAll(t *testing.T, what string, got, want []float32, rtol, atol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if d := math.Abs(float64(got[i] - want[i])); d > atol+rtol*math.Abs(float64(want[i])) {
			t.Fatalf("%s[%d] = %.8g, PyTorch gives %.8g", what, i, got[i], want[i])
		}
	}
}

// TestModelsMatchPyTorch loads PyTorch's weights into the same architectures (by state-dict name),
// runs them in eval mode and compares outputs, loss and every parameter gradient.
func TestModelsMatchPyTorch(t *testing.T) {
	f := loadModels(t)
	for _, c := range f.Models {
		t.Run(c.Name, func(t *testing.T) {
			m := fixtureModels[c.Name]()
			var names []string
			for _, p := range m.NamedParameters() {
				names = append(names, p.Name)
			}
			if !reflect.DeepEqual(names, c.Keys) {
				t.Fatalf("parameter names %v, PyTorch's state_dict has %v", names, c.Keys)
			}
			sd, err := LoadSafetensors("testdata/" + c.Name + ".safetensors")
			if err != nil {
				t.Fatal(err)
			}
			if err := LoadStateDict(m, sd); err != nil {
				t.Fatal(err)
			}
			SetTraining(m, false)
			var x *tensors.Tensor
			if c.InputInt != nil {
				x = tensors.FromInt64(c.InputInt, c.InputShape...)
			} else {
				x = tensors.New(c.Input, c.InputShape...)
			}
			out := m.Forward(x)
			if !reflect.DeepEqual(out.Shape(), c.OutputShape) {
				t.Fatalf("output shape %v, want %v", out.Shape(), c.OutputShape)
			}
			closeAll(t, "output", out.Float32s(), c.Output, 1e-5, 1e-6)
			var loss *tensors.Tensor
			if c.LossKind == "ce" {
				loss = CrossEntropy(out, tensors.FromInt64(c.TargetInt, len(c.TargetInt)))
			} else {
				loss = MSE(out, tensors.New(c.Target, c.TargetShape...))
			}
			closeAll(t, "loss", []float32{float32(loss.Item())}, []float32{float32(c.Loss)}, 1e-5, 1e-7)
			loss.Backward()
			for _, p := range m.NamedParameters() {
				if p.Param.Grad() == nil {
					t.Fatalf("%s has no gradient", p.Name)
				}
				closeAll(t, "grad "+p.Name, p.Param.Grad().Float32s(), c.Grads[p.Name], 1e-5, 1e-6)
			}
		})
	}
}

// TestDefaultInitMatchesPyTorchStatistics compares the spread of freshly initialised parameters
// with PyTorch's (kaiming_uniform a=√5 weights, ±1/√fan_in biases, N(0,1) embeddings).
func TestDefaultInitMatchesPyTorchStatistics(t *testing.T) {
	f := loadModels(t)
	tensors.ManualSeed(3)
	draw := func(n int, get func() *tensors.Tensor) []float32 {
		var all []float32
		for i := 0; i < n; i++ {
			all = append(all, get().Float32s()...)
		}
		return all
	}
	got := map[string]map[string][]float32{
		"linear_784_512": {
			"weight": draw(3, func() *tensors.Tensor { return NewLinear(784, 512).Weight }),
			"bias":   draw(50, func() *tensors.Tensor { return NewLinear(784, 512).Bias }),
		},
		"conv_16_32_5": {
			"weight": draw(5, func() *tensors.Tensor { return NewConv2d(16, 32, 5, 1, 0).Weight }),
			"bias":   draw(200, func() *tensors.Tensor { return NewConv2d(16, 32, 5, 1, 0).Bias }),
		},
		"embedding_1000_64": {"weight": draw(1, func() *tensors.Tensor { return NewEmbedding(1000, 64).Weight })},
	}
	for layer, params := range got {
		for name, vals := range params {
			want := f.Init[layer][name]
			var sum, sq, absmax float64
			for _, v := range vals {
				sum += float64(v)
				absmax = math.Max(absmax, math.Abs(float64(v)))
			}
			mean := sum / float64(len(vals))
			for _, v := range vals {
				sq += (float64(v) - mean) * (float64(v) - mean)
			}
			std := math.Sqrt(sq / float64(len(vals)-1))
			if math.Abs(std-want.Std) > 0.03*want.Std {
				t.Errorf("%s.%s: std %.5g, PyTorch %.5g", layer, name, std, want.Std)
			}
			if math.Abs(mean) > 4*want.Std/math.Sqrt(float64(len(vals))) {
				t.Errorf("%s.%s: mean %.3g is not about 0 (PyTorch %.3g)", layer, name, mean, want.Mean)
			}
			if layer != "embedding_1000_64" && absmax > want.Absmax*1.01 {
				t.Errorf("%s.%s: |w| reaches %.5g, beyond PyTorch's bound %.5g", layer, name, absmax, want.Absmax)
			}
		}
	}
}
