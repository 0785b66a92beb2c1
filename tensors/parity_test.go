package tensors

import (
	"encoding/json"
	"math"
	"os"
	"slices"
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
var parityOps = map[string]func(x []*Tensor, d Device) *Tensor{
	"Add":        func(x []*Tensor, d Device) *Tensor { return x[0].Add(x[1]) },
	"Sub":        func(x []*Tensor, d Device) *Tensor { return x[0].Sub(x[1]) },
	"Mul":        func(x []*Tensor, d Device) *Tensor { return x[0].Mul(x[1]) },
	"Div":        func(x []*Tensor, d Device) *Tensor { return x[0].Div(x[1]) },
	"AddScalar":  func(x []*Tensor, d Device) *Tensor { return x[0].AddScalar(2.5) },
	"MulScalar":  func(x []*Tensor, d Device) *Tensor { return x[0].MulScalar(-3) },
	"DivScalar":  func(x []*Tensor, d Device) *Tensor { return x[0].DivScalar(3) },
	"Pow":        func(x []*Tensor, d Device) *Tensor { return x[0].Pow(2.5) },
	"Neg":        func(x []*Tensor, d Device) *Tensor { return x[0].Neg() },
	"Exp":        func(x []*Tensor, d Device) *Tensor { return x[0].Exp() },
	"Log":        func(x []*Tensor, d Device) *Tensor { return x[0].Log() },
	"Sqrt":       func(x []*Tensor, d Device) *Tensor { return x[0].Sqrt() },
	"Abs":        func(x []*Tensor, d Device) *Tensor { return x[0].Abs() },
	"Tanh":       func(x []*Tensor, d Device) *Tensor { return x[0].Tanh() },
	"Sigmoid":    func(x []*Tensor, d Device) *Tensor { return x[0].Sigmoid() },
	"ReLU":       func(x []*Tensor, d Device) *Tensor { return x[0].ReLU() },
	"GELU":       func(x []*Tensor, d Device) *Tensor { return x[0].GELU() },
	"SiLU":       func(x []*Tensor, d Device) *Tensor { return x[0].SiLU() },
	"Clamp":      func(x []*Tensor, d Device) *Tensor { return x[0].Clamp(-0.7, 0.65) },
	"MaskedFill": func(x []*Tensor, d Device) *Tensor { return x[0].MaskedFill(aux(New([]float32{1, 0, 1}, 3).To(d)), -5) },
	"Where": func(x []*Tensor, d Device) *Tensor {
		return Where(aux(New([]float32{0, 1, 1, 0, 0, 1}, 2, 3).To(d)), x[0], x[1])
	},
	"MatMul":        func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) },
	"MatMulBatched": func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) },
	"MatMulVec":     func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) },
	"Sum":           func(x []*Tensor, d Device) *Tensor { return x[0].Sum() },
	"SumDims":       func(x []*Tensor, d Device) *Tensor { return x[0].SumDims(true, 0, 2) },
	"Mean":          func(x []*Tensor, d Device) *Tensor { return x[0].Mean() },
	"MeanDims":      func(x []*Tensor, d Device) *Tensor { return x[0].MeanDims(false, 1) },
	"Max":           func(x []*Tensor, d Device) *Tensor { return x[0].Max() },
	"Min":           func(x []*Tensor, d Device) *Tensor { return x[0].Min() },
	"MaxDim":        func(x []*Tensor, d Device) *Tensor { return x[0].MaxDim(1, false) },
	"MinDim":        func(x []*Tensor, d Device) *Tensor { return x[0].MinDim(0, true) },
	"Var":           func(x []*Tensor, d Device) *Tensor { return x[0].Var(true, false, 1) },
	"Softmax":       func(x []*Tensor, d Device) *Tensor { return x[0].Softmax(1) },
	"LogSoftmax":    func(x []*Tensor, d Device) *Tensor { return x[0].LogSoftmax(-1) },
	"Transpose":     func(x []*Tensor, d Device) *Tensor { return x[0].Transpose(0, 2).Exp() },
	"Permute":       func(x []*Tensor, d Device) *Tensor { return x[0].Permute(2, 0, 1).Tanh() },
	"Slice":         func(x []*Tensor, d Device) *Tensor { return x[0].Slice(1, 1, 4).Exp() },
	"IndexSelect":   func(x []*Tensor, d Device) *Tensor { return x[0].IndexSelect(0, idx(d, 2, 0, 2)) },
	"Gather": func(x []*Tensor, d Device) *Tensor {
		return x[0].Gather(1, aux(FromInt64([]int64{0, 3, 1, 1, 2, 2}, 3, 2).To(d)))
	},
	"Cat":    func(x []*Tensor, d Device) *Tensor { return Cat([]*Tensor{x[0], x[1], x[0]}, 1) },
	"Stack":  func(x []*Tensor, d Device) *Tensor { return Stack([]*Tensor{x[0], x[1]}, 1) },
	"Linear": func(x []*Tensor, d Device) *Tensor { return Linear(x[0], x[1], x[2]) },
	"Embedding": func(x []*Tensor, d Device) *Tensor {
		return Embedding(x[0], aux(FromInt64([]int64{4, 0, 4, 2}, 2, 2).To(d)))
	},
	"LayerNorm":      func(x []*Tensor, d Device) *Tensor { return LayerNorm(x[0], []int{8}, x[1], x[2], 1e-5) },
	"Conv2d":         func(x []*Tensor, d Device) *Tensor { return Conv2d(x[0], x[1], x[2], 1, 1) },
	"Conv2dStride":   func(x []*Tensor, d Device) *Tensor { return Conv2d(x[0], x[1], nil, 2, 0) },
	"Conv2dWinograd": func(x []*Tensor, d Device) *Tensor { return Conv2d(x[0], x[1], x[2], 1, 1) },
	"MaxPool2d":      func(x []*Tensor, d Device) *Tensor { return MaxPool2d(x[0], 2, 2) },
	"CrossEntropy":   func(x []*Tensor, d Device) *Tensor { return CrossEntropy(x[0], idx(d, 0, 9, 3, 3, 5, 1)) },
	"CrossEntropySmoothIgnore": func(x []*Tensor, d Device) *Tensor {
		return CrossEntropyWith(x[0], idx(d, 0, -100, 3, 7, 5, 1), CrossEntropyOptions{IgnoreIndex: -100, LabelSmoothing: 0.1, Reduction: "mean"})
	},
	"CrossEntropySum": func(x []*Tensor, d Device) *Tensor {
		return CrossEntropyWith(x[0], idx(d, 0, 9, 3, 3, 5, 1), CrossEntropyOptions{IgnoreIndex: -100, Reduction: "sum"})
	},
	"CrossEntropyNone": func(x []*Tensor, d Device) *Tensor {
		return CrossEntropyWith(x[0], idx(d, 0, 9, 3, 3, 5, 1), CrossEntropyOptions{IgnoreIndex: -100, Reduction: "none"})
	},
	"MSE":      func(x []*Tensor, d Device) *Tensor { return MSE(x[0], x[1]) },
	"GELUTanh": func(x []*Tensor, d Device) *Tensor { return x[0].GELUTanh() },
	"Tril":     func(x []*Tensor, d Device) *Tensor { return x[0].Tril(1) },
	"Triu":     func(x []*Tensor, d Device) *Tensor { return x[0].Triu(-1) },
	"AttentionCausal": func(x []*Tensor, d Device) *Tensor {
		return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{Causal: true})
	},
	"AttentionCross": func(x []*Tensor, d Device) *Tensor {
		return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{})
	},
	"Attention3D": func(x []*Tensor, d Device) *Tensor {
		return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{Causal: true})
	},
	"AttentionLong": func(x []*Tensor, d Device) *Tensor {
		return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{Causal: true})
	},
	"MultiHeadAttention": func(x []*Tensor, d Device) *Tensor {
		return MultiHeadAttention(x[0], 2, AttentionOptions{Causal: true})
	},
	"TopK":         func(x []*Tensor, d Device) *Tensor { v, _ := x[0].TopK(3, 1, true); return v },
	"TopKSmallest": func(x []*Tensor, d Device) *Tensor { v, _ := x[0].TopK(2, 0, false); return v },
	"Split": func(x []*Tensor, d Device) *Tensor {
		ps := x[0].Split(4, 1)
		return Stack([]*Tensor{ps[0].SumDims(false, 1), ps[1].SumDims(false, 1).MulScalar(2)}, 1)
	},
	"ReshapeView": func(x []*Tensor, d Device) *Tensor { return x[0].Slice(2, 2, 6).Reshape(2, 3, 2, 2).Exp() },
	"AvgPool2d": func(x []*Tensor, d Device) *Tensor {
		return AvgPool2d(x[0], 3, AvgPool2dOptions{Stride: 2, Padding: 1})
	},
	"AvgPool2dExcludePadCeil": func(x []*Tensor, d Device) *Tensor {
		return AvgPool2d(x[0], 3, AvgPool2dOptions{Stride: 2, Padding: 1, CeilMode: true, ExcludePad: true})
	},
	"AvgPool2dDivisor":    func(x []*Tensor, d Device) *Tensor { return AvgPool2d(x[0], 2, AvgPool2dOptions{Divisor: 3}) },
	"AdaptiveAvgPool2d":   func(x []*Tensor, d Device) *Tensor { return AdaptiveAvgPool2d(x[0], 3, 2) },
	"AdaptiveAvgPool2dUp": func(x []*Tensor, d Device) *Tensor { return AdaptiveAvgPool2d(x[0], 5, 4) },
	"BatchNorm2d":         batchNormTrainCase,
	"BatchNorm1d":         batchNormTrainCase,
	"BatchNorm1d3d":       batchNormTrainCase,
	"BatchNormEval": func(x []*Tensor, d Device) *Tensor {
		m, v := aux(New([]float32{0.3, -0.2, 0.1}, 3).To(d)), aux(New([]float32{0.5, 1.5, 0.8}, 3).To(d))
		return BatchNorm(x[0], m, v, x[1], x[2], false, 0.1, 1e-5)
	},
	"GroupNorm": func(x []*Tensor, d Device) *Tensor { return GroupNorm(x[0], 2, x[1], x[2], 1e-5) },
	"RMSNorm":   func(x []*Tensor, d Device) *Tensor { return RMSNorm(x[0], []int{8}, x[1], 1e-6) },
}

// batchNormTrainCase is F.batch_norm in training with fresh running statistics (zeros, ones).
func batchNormTrainCase(x []*Tensor, d Device) *Tensor {
	c := x[0].Size(1)
	return BatchNorm(x[0], aux(Zeros(c).To(d)), aux(Ones(c).To(d)), x[1], x[2], true, 0.1, 1e-5)
}

// closeTo is the parity tolerance: rtol relative, with an absolute floor of rtol/10 times the
// largest reference magnitude (float32 sums of many terms cancel to values near zero).
func closeTo(got []float32, want []float64, rtol float64) (int, bool) {
	scale := 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	for i, w := range want {
		if math.Abs(float64(got[i])-w) > rtol*math.Abs(w)+rtol/10*scale {
			return i, false
		}
	}
	return 0, true
}

// normError is ‖got − want‖₂ / ‖want‖₂.
func normError(got []float32, want []float64) float64 {
	var d, w float64
	for i, x := range want {
		d += (float64(got[i]) - x) * (float64(got[i]) - x)
		w += x * x
	}
	return math.Sqrt(d / w)
}

type parityFixtures struct {
	Cases []fixtureCase `json:"cases"`
}

func loadParityFixtures(t *testing.T) parityFixtures {
	t.Helper()
	raw, err := os.ReadFile("testdata/ops.json")
	if err != nil {
		t.Fatalf("read fixtures (regenerate with /usr/bin/python3 tensors/testdata/gen_fixtures.py): %v", err)
	}
	var fx parityFixtures
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatalf("decode fixtures: %v", err)
	}
	return fx
}

// TestOpsMatchPyTorchFixtures is the op suite: every op and its gradient, on every device the
// test binary has (the CPU, the strict simulated devices, CUDA when a GPU is present), against
// the same PyTorch values to 1e-5 relative.
func TestOpsMatchPyTorchFixtures(t *testing.T) {
	fx := loadParityFixtures(t)
	if len(fx.Cases) != len(parityOps) {
		t.Errorf("fixture has %d cases, Go table %d: keep them in sync", len(fx.Cases), len(parityOps))
	}
	for _, d := range testDevices {
		for _, c := range fx.Cases {
			t.Run(d.String()+"/"+c.Name, func(t *testing.T) {
				checkParity(t, c, d, 1e-5)
			})
		}
	}
}

// TestAutocastOpsMatchPyTorchFP32 runs the products under bfloat16 autocast on every device
// against the same float32 PyTorch references, to bfloat16's tolerance.
func TestAutocastOpsMatchPyTorchFP32(t *testing.T) {
	fx := loadParityFixtures(t)
	for _, d := range testDevices {
		for _, c := range fx.Cases {
			switch c.Name {
			case "MatMul", "MatMulBatched", "MatMulVec", "Linear", "Conv2d", "Conv2dStride", "Conv2dWinograd":
			default:
				continue
			}
			t.Run(d.String()+"/"+c.Name, func(t *testing.T) {
				Autocast(BFloat16, func() { checkParity(t, c, d, 0) })
			})
		}
	}
}

// checkParity runs one fixture case on device d and compares the output and the input
// gradients with PyTorch's: elementwise to rtol (with an absolute floor of rtol/10 of the
// largest reference magnitude), or with rtol 0 as bfloat16 results, whose error relative to
// the reference's L2 norm must stay within 1e-2 (elementwise, sums that cancel to small values
// carry the operands' rounding at the operands' scale).
func checkParity(t *testing.T, c fixtureCase, d Device, rtol float64) {
	t.Helper()
	f, ok := parityOps[c.Name]
	if !ok {
		t.Fatalf("no Go op for fixture case %q", c.Name)
	}
	xs := make([]*Tensor, len(c.Inputs))
	for i, in := range c.Inputs {
		xs[i] = in.tensor().To(d).SetRequiresGrad(true)
	}
	out := f(xs, d)
	if !slices.Equal(out.Shape(), c.Output.Shape) {
		t.Fatalf("output shape %v, PyTorch %v", out.Shape(), c.Output.Shape)
	}
	if !sameDevice(out.Device(), d) {
		t.Fatalf("output on %s, want %s", out.Device(), d)
	}
	got := out.Float32s()
	if rtol == 0 {
		if e := normError(got, c.Output.Data); e > 1e-2 {
			t.Fatalf("output: error %.3g relative to the reference's norm (bfloat16 allows 1e-2)", e)
		}
	} else if i, ok := closeTo(got, c.Output.Data, rtol); !ok {
		t.Fatalf("output[%d] = %v, PyTorch %v", i, got[i], c.Output.Data[i])
	}
	out.Mul(c.R.tensor().To(d)).Sum().Backward()
	for k, g := range c.Grads {
		if !sameDevice(xs[k].Grad().Device(), d) {
			t.Fatalf("grad of input %d on %s, want %s", k, xs[k].Grad().Device(), d)
		}
		gg := xs[k].Grad().Float32s()
		if rtol == 0 {
			if e := normError(gg, g.Data); e > 1e-2 {
				t.Fatalf("grad of input %d: error %.3g relative to the reference's norm (bfloat16 allows 1e-2)", k, e)
			}
		} else if i, ok := closeTo(gg, g.Data, rtol); !ok {
			t.Fatalf("grad of input %d [%d] = %v, PyTorch %v", k, i, gg[i], g.Data[i])
		}
	}
}

// TestHalfConversionsMatchPyTorch compares float32 → bfloat16 / float16 rounding on every device
// with the bits PyTorch produces for the same values (fixture: random magnitudes, ties,
// subnormals, overflow).
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
	for _, d := range testDevices {
		x := New(vals, len(vals)).To(d)
		for _, k := range []struct {
			dt   DType
			want []uint16
		}{{BFloat16, c.BF16}, {Float16, c.F16}} {
			got := x.AsType(k.dt).To(CPU)
			for i, h := range got.buf().U16 {
				if h != k.want[i] {
					t.Fatalf("%s: %s(%g): bits %#04x, PyTorch %#04x", d, k.dt, vals[i], h, k.want[i])
				}
			}
		}
	}
}
