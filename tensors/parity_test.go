package tensors

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

type fixtureTensor struct {
	Shape []int     `json:"shape"`
	Data  []float64 `json:"data"`
}

func (f fixtureTensor) tensor() *Tensor {
	v := make([]float32, len(f.Data))
	for i, x := range f.Data {
		v[i] = float32(x)
	}
	return New(v, f.Shape...)
}

type fixtureCase struct {
	Name   string          `json:"name"`
	Inputs []fixtureTensor `json:"inputs"`
	R      fixtureTensor   `json:"r"`
	Output fixtureTensor   `json:"output"`
	Grads  []fixtureTensor `json:"grads"`
}

// parityOps rebuilds, by name, the cases tensors/testdata/gen_fixtures.py computes with PyTorch.
var parityOps = map[string]func(x []*Tensor) *Tensor{
	"Add":           func(x []*Tensor) *Tensor { return x[0].Add(x[1]) },
	"Sub":           func(x []*Tensor) *Tensor { return x[0].Sub(x[1]) },
	"Mul":           func(x []*Tensor) *Tensor { return x[0].Mul(x[1]) },
	"Div":           func(x []*Tensor) *Tensor { return x[0].Div(x[1]) },
	"AddScalar":     func(x []*Tensor) *Tensor { return x[0].AddScalar(2.5) },
	"MulScalar":     func(x []*Tensor) *Tensor { return x[0].MulScalar(-3) },
	"DivScalar":     func(x []*Tensor) *Tensor { return x[0].DivScalar(3) },
	"Pow":           func(x []*Tensor) *Tensor { return x[0].Pow(2.5) },
	"Neg":           func(x []*Tensor) *Tensor { return x[0].Neg() },
	"Exp":           func(x []*Tensor) *Tensor { return x[0].Exp() },
	"Log":           func(x []*Tensor) *Tensor { return x[0].Log() },
	"Sqrt":          func(x []*Tensor) *Tensor { return x[0].Sqrt() },
	"Abs":           func(x []*Tensor) *Tensor { return x[0].Abs() },
	"Tanh":          func(x []*Tensor) *Tensor { return x[0].Tanh() },
	"Sigmoid":       func(x []*Tensor) *Tensor { return x[0].Sigmoid() },
	"ReLU":          func(x []*Tensor) *Tensor { return x[0].ReLU() },
	"GELU":          func(x []*Tensor) *Tensor { return x[0].GELU() },
	"SiLU":          func(x []*Tensor) *Tensor { return x[0].SiLU() },
	"Clamp":         func(x []*Tensor) *Tensor { return x[0].Clamp(-0.7, 0.65) },
	"MaskedFill":    func(x []*Tensor) *Tensor { return x[0].MaskedFill(New([]float32{1, 0, 1}, 3), -5) },
	"Where":         func(x []*Tensor) *Tensor { return Where(New([]float32{0, 1, 1, 0, 0, 1}, 2, 3), x[0], x[1]) },
	"MatMul":        func(x []*Tensor) *Tensor { return x[0].MatMul(x[1]) },
	"MatMulBatched": func(x []*Tensor) *Tensor { return x[0].MatMul(x[1]) },
	"MatMulVec":     func(x []*Tensor) *Tensor { return x[0].MatMul(x[1]) },
	"Sum":           func(x []*Tensor) *Tensor { return x[0].Sum() },
	"SumDims":       func(x []*Tensor) *Tensor { return x[0].SumDims(true, 0, 2) },
	"Mean":          func(x []*Tensor) *Tensor { return x[0].Mean() },
	"MeanDims":      func(x []*Tensor) *Tensor { return x[0].MeanDims(false, 1) },
	"Max":           func(x []*Tensor) *Tensor { return x[0].Max() },
	"Min":           func(x []*Tensor) *Tensor { return x[0].Min() },
	"MaxDim":        func(x []*Tensor) *Tensor { return x[0].MaxDim(1, false) },
	"MinDim":        func(x []*Tensor) *Tensor { return x[0].MinDim(0, true) },
	"Var":           func(x []*Tensor) *Tensor { return x[0].Var(true, false, 1) },
	"Softmax":       func(x []*Tensor) *Tensor { return x[0].Softmax(1) },
	"LogSoftmax":    func(x []*Tensor) *Tensor { return x[0].LogSoftmax(-1) },
	"Transpose":     func(x []*Tensor) *Tensor { return x[0].Transpose(0, 2).Exp() },
	"Permute":       func(x []*Tensor) *Tensor { return x[0].Permute(2, 0, 1).Tanh() },
	"Slice":         func(x []*Tensor) *Tensor { return x[0].Slice(1, 1, 4).Exp() },
	"IndexSelect":   func(x []*Tensor) *Tensor { return x[0].IndexSelect(0, idx(2, 0, 2)) },
	"Gather": func(x []*Tensor) *Tensor {
		return x[0].Gather(1, FromInt64([]int64{0, 3, 1, 1, 2, 2}, 3, 2))
	},
	"Cat":          func(x []*Tensor) *Tensor { return Cat([]*Tensor{x[0], x[1], x[0]}, 1) },
	"Stack":        func(x []*Tensor) *Tensor { return Stack([]*Tensor{x[0], x[1]}, 1) },
	"Linear":       func(x []*Tensor) *Tensor { return Linear(x[0], x[1], x[2]) },
	"Embedding":    func(x []*Tensor) *Tensor { return Embedding(x[0], FromInt64([]int64{4, 0, 4, 2}, 2, 2)) },
	"LayerNorm":    func(x []*Tensor) *Tensor { return LayerNorm(x[0], []int{8}, x[1], x[2], 1e-5) },
	"Conv2d":       func(x []*Tensor) *Tensor { return Conv2d(x[0], x[1], x[2], 1, 1) },
	"Conv2dStride": func(x []*Tensor) *Tensor { return Conv2d(x[0], x[1], nil, 2, 0) },
	"MaxPool2d":    func(x []*Tensor) *Tensor { return MaxPool2d(x[0], 2, 2) },
	"CrossEntropy": func(x []*Tensor) *Tensor { return CrossEntropy(x[0], idx(0, 9, 3, 3, 5, 1)) },
	"CrossEntropySmoothIgnore": func(x []*Tensor) *Tensor {
		return CrossEntropyWith(x[0], idx(0, -100, 3, 7, 5, 1), CrossEntropyOptions{IgnoreIndex: -100, LabelSmoothing: 0.1, Reduction: "mean"})
	},
	"CrossEntropySum": func(x []*Tensor) *Tensor {
		return CrossEntropyWith(x[0], idx(0, 9, 3, 3, 5, 1), CrossEntropyOptions{IgnoreIndex: -100, Reduction: "sum"})
	},
	"CrossEntropyNone": func(x []*Tensor) *Tensor {
		return CrossEntropyWith(x[0], idx(0, 9, 3, 3, 5, 1), CrossEntropyOptions{IgnoreIndex: -100, Reduction: "none"})
	},
	"MSE": func(x []*Tensor) *Tensor { return MSE(x[0], x[1]) },
}

// closeF32 is the parity tolerance: 1e-5 relative, with an absolute floor of 1e-6 times the
// largest reference magnitude (float32 sums of many terms cancel to values near zero).
func closeF32(got []float32, want []float64) (int, bool) {
	scale := 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	for i, w := range want {
		if math.Abs(float64(got[i])-w) > 1e-5*math.Abs(w)+1e-6*scale {
			return i, false
		}
	}
	return 0, true
}

func TestOpsMatchPyTorchFixtures(t *testing.T) {
	raw, err := os.ReadFile("testdata/ops.json")
	if err != nil {
		t.Fatalf("read fixtures (regenerate with /usr/bin/python3 tensors/testdata/gen_fixtures.py): %v", err)
	}
	var fx struct {
		Cases []fixtureCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("decode fixtures: %v", err)
	}
	if len(fx.Cases) != len(parityOps) {
		t.Errorf("fixture has %d cases, Go table %d: keep them in sync", len(fx.Cases), len(parityOps))
	}
	for _, c := range fx.Cases {
		t.Run(c.Name, func(t *testing.T) {
			f, ok := parityOps[c.Name]
			if !ok {
				t.Fatalf("no Go op for fixture case %q", c.Name)
			}
			xs := make([]*Tensor, len(c.Inputs))
			for i, in := range c.Inputs {
				xs[i] = in.tensor().SetRequiresGrad(true)
			}
			out := f(xs)
			if !sameShape(out.Shape(), c.Output.Shape) {
				t.Fatalf("output shape %v, PyTorch %v", out.Shape(), c.Output.Shape)
			}
			got := out.Float32s()
			if i, ok := closeF32(got, c.Output.Data); !ok {
				t.Fatalf("output[%d] = %v, PyTorch %v", i, got[i], c.Output.Data[i])
			}
			out.Mul(c.R.tensor()).Sum().Backward()
			for k, g := range c.Grads {
				gg := xs[k].Grad().Float32s()
				if i, ok := closeF32(gg, g.Data); !ok {
					t.Fatalf("grad of input %d [%d] = %v, PyTorch %v", k, i, gg[i], g.Data[i])
				}
			}
		})
	}
}

// TestHalfConversionsMatchPyTorch compares float32 → bfloat16 / float16 rounding with the bits
// PyTorch produces for the same values (fixture: random magnitudes, ties, subnormals, overflow).
func TestHalfConversionsMatchPyTorch(t *testing.T) {
	raw, err := os.ReadFile("testdata/ops.json")
	if err != nil {
		t.Fatalf("read fixtures: %v", err)
	}
	var fx struct {
		Conversions struct {
			F32  []uint32 `json:"f32"`
			BF16 []uint16 `json:"bf16"`
			F16  []uint16 `json:"f16"`
		} `json:"conversions"`
	}
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("decode fixtures: %v", err)
	}
	c := fx.Conversions
	if len(c.F32) < 2000 || len(c.BF16) != len(c.F32) || len(c.F16) != len(c.F32) {
		t.Fatalf("conversion fixture has %d/%d/%d values", len(c.F32), len(c.BF16), len(c.F16))
	}
	vals := make([]float32, len(c.F32))
	for i, b := range c.F32 {
		vals[i] = math.Float32frombits(b)
	}
	x := New(vals, len(vals))
	for _, k := range []struct {
		dt   DType
		want []uint16
	}{{BFloat16, c.BF16}, {Float16, c.F16}} {
		got := x.AsType(k.dt)
		for i, h := range got.buf.U16 {
			if h != k.want[i] {
				t.Fatalf("%s(%g): bits %#04x, PyTorch %#04x", k.dt, vals[i], h, k.want[i])
			}
		}
	}
}
