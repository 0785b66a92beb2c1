package tensors

import (
	"math"
	"testing"
)

// randF64 returns a float64 leaf with values in [lo, hi) from a fixed stream.
func randF64(g *Generator, lo, hi float64, shape ...int) *Tensor {
	u := g.Rand(shape...).Float64s()
	for i := range u {
		u[i] = lo + (hi-lo)*u[i]
	}
	return NewFloat64(u, shape...).SetRequiresGrad(true)
}

// awayFrom returns values in [0.2, 1.2) with random signs: no kinks at 0 for ReLU/Abs.
func awayFrom0(g *Generator, shape ...int) *Tensor {
	u := g.Rand(shape...).Float64s()
	s := g.Rand(shape...).Float64s()
	for i := range u {
		u[i] = 0.2 + u[i]
		if s[i] < 0.5 {
			u[i] = -u[i]
		}
	}
	return NewFloat64(u, shape...).SetRequiresGrad(true)
}

// checkGrad compares autograd gradients of sum(f(xs) * r) (r a fixed random weight) with
// central finite differences for every element of every input. f runs on device d: the CPU
// inputs move there with To, so their gradients come back through it.
func checkGrad(t *testing.T, f func(xs []*Tensor, d Device) *Tensor, xs []*Tensor, d Device) {
	t.Helper()
	on := func() []*Tensor {
		out := make([]*Tensor, len(xs))
		for i, x := range xs {
			out[i] = x.To(d)
		}
		return out
	}
	out := f(on(), d).To(CPU)
	r := NewFloat64(NewGenerator(99).Rand(out.shape...).Float64s(), out.shape...)
	for i, v := range r.Data64() {
		r.Data64()[i] = v - 0.3
	}
	loss := out.AsType(Float64).Mul(r).Sum()
	loss.Backward()
	eval := func() float64 {
		var v float64
		NoGrad(func() { v = f(on(), d).To(CPU).AsType(Float64).Mul(r).Sum().Item() })
		return v
	}
	const h = 1e-6
	for k, x := range xs {
		if !x.requiresGrad {
			continue
		}
		if x.Grad() == nil {
			t.Fatalf("input %d: no gradient reached it", k)
		}
		ag := x.Grad().Float64s()
		data := x.Data64()
		for i := range data {
			orig := data[i]
			data[i] = orig + h
			up := eval()
			data[i] = orig - h
			down := eval()
			data[i] = orig
			num := (up - down) / (2 * h)
			if math.Abs(num-ag[i]) > 1e-5*(1+math.Abs(num)) {
				t.Fatalf("input %d element %d: autograd %.9g, finite difference %.9g", k, i, ag[i], num)
			}
		}
	}
}

type gradCase struct {
	name string
	in   func(g *Generator) []*Tensor
	f    func(xs []*Tensor, d Device) *Tensor
}

func ins(ts ...*Tensor) []*Tensor { return ts }

func idx(d Device, v ...int64) *Tensor { return aux(FromInt64(v, len(v)).To(d)) }

// auxTensors, when set, collects the index, target and mask tensors the op suite makes, so that
// TestOpsWithEveryHandleReleased can release them right after the forward pass.
var auxTensors *[]*Tensor

func aux(t *Tensor) *Tensor {
	if auxTensors != nil {
		*auxTensors = append(*auxTensors, t)
	}
	return t
}

// twoProcesses is SyncBatchNorm's allReduce in a group of two whose other process holds the batch
// other ([N, C, …]) and whose loss does not depend on this process's outputs (so its gradient
// sums are zero): the statistics are those of both batches, the gradient this process's.
func twoProcesses(other *Tensor) func(*Tensor) {
	c := other.Size(1)
	dims, cs := []int{0}, []int{1, c}
	for d := 2; d < other.Dim(); d++ {
		dims, cs = append(dims, d), append(cs, 1)
	}
	call := 0
	var total *Tensor
	return func(t *Tensor) {
		call++
		switch call {
		case 1: // counts and sums
			n := float64(other.Numel() / c)
			add := Cat([]*Tensor{FullLike(other.SumDims(false, dims...), n), other.SumDims(false, dims...)}, 0)
			t.CopyFrom(t.Add(add))
			total = t.Clone()
		case 2: // squared deviations from the mean of both batches
			mean := total.Slice(0, c, 2*c).Div(total.Slice(0, 0, c)).Reshape(cs...)
			dev := other.Sub(mean)
			t.CopyFrom(t.Add(dev.Mul(dev).SumDims(false, dims...)))
		}
	}
}

func gradCases() []gradCase {
	u := func(lo, hi float64, shape ...int) func(g *Generator) []*Tensor {
		return func(g *Generator) []*Tensor { return ins(randF64(g, lo, hi, shape...)) }
	}
	two := func(a, b []int) func(g *Generator) []*Tensor {
		return func(g *Generator) []*Tensor { return ins(randF64(g, -1, 1, a...), randF64(g, 0.5, 1.5, b...)) }
	}
	norm3 := func(x []int, c int) func(g *Generator) []*Tensor {
		return func(g *Generator) []*Tensor {
			return ins(randF64(g, -1, 2, x...), randF64(g, 0.5, 1.5, c), randF64(g, -1, 1, c))
		}
	}
	kink := func(shape ...int) func(g *Generator) []*Tensor {
		return func(g *Generator) []*Tensor { return ins(awayFrom0(g, shape...)) }
	}
	return []gradCase{
		{"Add/broadcast", two([]int{2, 3}, []int{3}), func(x []*Tensor, d Device) *Tensor { return x[0].Add(x[1]) }},
		{"Add/both-broadcast", two([]int{2, 1, 3}, []int{4, 1}), func(x []*Tensor, d Device) *Tensor { return x[0].Add(x[1]) }},
		{"Sub/broadcast", two([]int{3}, []int{2, 3}), func(x []*Tensor, d Device) *Tensor { return x[0].Sub(x[1]) }},
		{"Mul/broadcast", two([]int{2, 3}, []int{2, 1}), func(x []*Tensor, d Device) *Tensor { return x[0].Mul(x[1]) }},
		{"Div/broadcast", two([]int{2, 3}, []int{1, 3}), func(x []*Tensor, d Device) *Tensor { return x[0].Div(x[1]) }},
		{"Mul/same-input", u(-1, 1, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Mul(x[0]) }},
		{"AddScalar", u(-1, 1, 4), func(x []*Tensor, d Device) *Tensor { return x[0].AddScalar(2.5) }},
		{"SubScalar", u(-1, 1, 4), func(x []*Tensor, d Device) *Tensor { return x[0].SubScalar(2.5) }},
		{"MulScalar", u(-1, 1, 4), func(x []*Tensor, d Device) *Tensor { return x[0].MulScalar(-3) }},
		{"DivScalar", u(-1, 1, 4), func(x []*Tensor, d Device) *Tensor { return x[0].DivScalar(4) }},
		{"Pow", u(0.5, 2, 2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Pow(2.5) }},
		{"Pow/square", u(-2, 2, 5), func(x []*Tensor, d Device) *Tensor { return x[0].Pow(2) }},
		{"Neg", u(-1, 1, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Neg() }},
		{"Exp", u(-1, 1, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Exp() }},
		{"Log", u(0.5, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Log() }},
		{"Sqrt", u(0.5, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Sqrt() }},
		{"Abs", kink(2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Abs() }},
		{"Tanh", u(-2, 2, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Tanh() }},
		{"Sigmoid", u(-2, 2, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Sigmoid() }},
		{"ReLU", kink(2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].ReLU() }},
		{"GELU", u(-3, 3, 6), func(x []*Tensor, d Device) *Tensor { return x[0].GELU() }},
		{"SiLU", u(-3, 3, 6), func(x []*Tensor, d Device) *Tensor { return x[0].SiLU() }},
		{"Clamp", kink(3, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Clamp(-0.7, 0.65) }},
		{"MaskedFill", u(-1, 1, 2, 3), func(x []*Tensor, d Device) *Tensor {
			return x[0].MaskedFill(New([]float32{1, 0, 1}, 3).To(d), -5)
		}},
		{"Where", two([]int{2, 3}, []int{3}), func(x []*Tensor, d Device) *Tensor {
			return Where(FromInt64([]int64{0, 1, 1, 0, 0, 1}, 2, 3).To(d), x[0], x[1])
		}},
		{"MatMul/2d", two([]int{3, 4}, []int{4, 2}), func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) }},
		{"MatMul/transposed", two([]int{4, 3}, []int{2, 4}), func(x []*Tensor, d Device) *Tensor { return x[0].T().MatMul(x[1].T()) }},
		{"MatMul/batched-broadcast", two([]int{2, 3, 4}, []int{4, 2}), func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) }},
		{"MatMul/batch-both", two([]int{2, 1, 2, 3}, []int{3, 3, 2}), func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) }},
		{"MatMul/vec-mat", two([]int{3}, []int{3, 2}), func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) }},
		{"MatMul/mat-vec", two([]int{2, 3}, []int{3}), func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) }},
		{"MatMul/dot", two([]int{4}, []int{4}), func(x []*Tensor, d Device) *Tensor { return x[0].MatMul(x[1]) }},
		{"Sum", u(-1, 1, 2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Sum() }},
		{"SumDims/keep", u(-1, 1, 2, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].SumDims(true, 0, 2) }},
		{"SumDims/drop-adjacent", u(-1, 1, 2, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].SumDims(false, 1, 2) }},
		{"Mean", u(-1, 1, 2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Mean() }},
		{"MeanDims", u(-1, 1, 2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].MeanDims(false, -1) }},
		{"Max", u(-1, 1, 2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Max() }},
		{"Min", u(-1, 1, 2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Min() }},
		{"MaxDim", u(-1, 1, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].MaxDim(1, false) }},
		{"MinDim/keep", u(-1, 1, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].MinDim(0, true) }},
		{"Var/unbiased", u(-1, 1, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Var(true, false, 1) }},
		{"Var/all", u(-1, 1, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Var(false, false) }},
		{"Softmax", u(-2, 2, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Softmax(1) }},
		{"Softmax/dim0", u(-2, 2, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Softmax(0) }},
		{"LogSoftmax", u(-2, 2, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].LogSoftmax(-1) }},
		{"Reshape", u(-1, 1, 2, 6), func(x []*Tensor, d Device) *Tensor { return x[0].Reshape(3, -1).Mul(x[0].Reshape(3, 4)) }},
		{"Reshape/non-contiguous", u(-1, 1, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].T().Reshape(12) }},
		{"View", u(-1, 1, 2, 6), func(x []*Tensor, d Device) *Tensor { return x[0].View(4, 3).Exp() }},
		{"Flatten", u(-1, 1, 2, 3, 2), func(x []*Tensor, d Device) *Tensor { return x[0].Flatten(1, 2).Exp() }},
		{"Transpose", u(-1, 1, 2, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Transpose(0, 2).Exp() }},
		{"T", u(-1, 1, 2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].T().Contiguous() }},
		{"Permute", u(-1, 1, 2, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Permute(2, 0, 1).Tanh() }},
		{"Squeeze", u(-1, 1, 2, 1, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Squeeze().Exp() }},
		{"Unsqueeze", u(-1, 1, 2, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Unsqueeze(1).Exp() }},
		{"Slice", u(-1, 1, 4, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Slice(0, 1, 3).Exp() }},
		{"Slice/negative", u(-1, 1, 4, 5), func(x []*Tensor, d Device) *Tensor { return x[0].Slice(1, -3, -1).Exp() }},
		{"IndexSelect", u(-1, 1, 4, 3), func(x []*Tensor, d Device) *Tensor { return x[0].IndexSelect(0, idx(d, 2, 0, 2)) }},
		{"IndexSelect/dim1", u(-1, 1, 2, 4), func(x []*Tensor, d Device) *Tensor { return x[0].IndexSelect(1, idx(d, 3, 3, 1)) }},
		{"Gather", u(-1, 1, 3, 4), func(x []*Tensor, d Device) *Tensor {
			return x[0].Gather(1, FromInt64([]int64{0, 3, 1, 1, 2, 2}, 3, 2).To(d))
		}},
		{"Cat", two([]int{2, 3}, []int{2, 2}), func(x []*Tensor, d Device) *Tensor { return Cat([]*Tensor{x[0], x[1], x[0]}, 1) }},
		{"Stack", two([]int{2, 3}, []int{2, 3}), func(x []*Tensor, d Device) *Tensor { return Stack([]*Tensor{x[0], x[1]}, 1) }},
		{"Contiguous", u(-1, 1, 3, 2), func(x []*Tensor, d Device) *Tensor { return x[0].T().Contiguous() }},
		{"Clone", u(-1, 1, 3), func(x []*Tensor, d Device) *Tensor { return x[0].Clone().Mul(x[0]) }},
		{"Linear", func(g *Generator) []*Tensor {
			return ins(randF64(g, -1, 1, 4, 3), randF64(g, -1, 1, 5, 3), randF64(g, -1, 1, 5))
		}, func(x []*Tensor, d Device) *Tensor { return Linear(x[0], x[1], x[2]) }},
		{"Linear/3d-no-bias", two([]int{2, 2, 3}, []int{4, 3}), func(x []*Tensor, d Device) *Tensor { return Linear(x[0], x[1], nil) }},
		{"Dropout", u(-1, 1, 4, 5), func(x []*Tensor, d Device) *Tensor {
			ManualSeed(7)
			return Dropout(x[0], 0.4, true)
		}},
		{"Embedding", u(-1, 1, 5, 3), func(x []*Tensor, d Device) *Tensor {
			return Embedding(x[0], FromInt64([]int64{4, 0, 4, 2}, 2, 2).To(d))
		}},
		{"LayerNorm", func(g *Generator) []*Tensor {
			return ins(randF64(g, -1, 1, 3, 4), randF64(g, 0.5, 1.5, 4), randF64(g, -1, 1, 4))
		}, func(x []*Tensor, d Device) *Tensor { return LayerNorm(x[0], []int{4}, x[1], x[2], 1e-5) }},
		{"LayerNorm/2d-no-affine", u(-1, 1, 2, 2, 3), func(x []*Tensor, d Device) *Tensor {
			return LayerNorm(x[0], []int{2, 3}, nil, nil, 1e-5)
		}},
		{"Conv2d", func(g *Generator) []*Tensor {
			return ins(randF64(g, -1, 1, 2, 2, 5, 5), randF64(g, -1, 1, 3, 2, 3, 3), randF64(g, -1, 1, 3))
		}, func(x []*Tensor, d Device) *Tensor { return Conv2d(x[0], x[1], x[2], 1, 1) }},
		{"Conv2d/stride2-nopad", two([]int{1, 1, 6, 5}, []int{2, 1, 2, 2}), func(x []*Tensor, d Device) *Tensor {
			return Conv2d(x[0], x[1], nil, 2, 0)
		}},
		{"Conv2d/one-image-per-gemm", func(g *Generator) []*Tensor {
			return ins(randF64(g, -1, 1, 2, 1, 16, 16), randF64(g, -1, 1, 2, 1, 3, 3), randF64(g, -1, 1, 2))
		}, func(x []*Tensor, d Device) *Tensor { return Conv2d(x[0], x[1], x[2], 1, 1) }},
		{"MaxPool2d", u(-1, 1, 1, 2, 4, 4), func(x []*Tensor, d Device) *Tensor { return MaxPool2d(x[0], 2, 2) }},
		{"MaxPool2d/overlap", u(-1, 1, 1, 1, 5, 5), func(x []*Tensor, d Device) *Tensor { return MaxPool2d(x[0], 3, 1) }},
		{"CrossEntropy", u(-2, 2, 4, 5), func(x []*Tensor, d Device) *Tensor { return CrossEntropy(x[0], idx(d, 0, 4, 2, 2)) }},
		{"CrossEntropy/smooth-ignore-sum", u(-2, 2, 4, 5), func(x []*Tensor, d Device) *Tensor {
			return CrossEntropyWith(x[0], idx(d, 1, -100, 3, 0), CrossEntropyOptions{IgnoreIndex: -100, LabelSmoothing: 0.2, Reduction: "sum"})
		}},
		{"CrossEntropy/none-3d", u(-2, 2, 2, 3, 2), func(x []*Tensor, d Device) *Tensor {
			return CrossEntropyWith(x[0], FromInt64([]int64{0, 2, 1, 1}, 2, 2).To(d), CrossEntropyOptions{IgnoreIndex: -100, Reduction: "none"})
		}},
		{"MSE", two([]int{3, 2}, []int{3, 2}), func(x []*Tensor, d Device) *Tensor { return MSE(x[0], x[1]) }},
		{"GELUTanh", u(-3, 3, 6), func(x []*Tensor, d Device) *Tensor { return x[0].GELUTanh() }},
		{"Tril", u(-1, 1, 2, 3, 4), func(x []*Tensor, d Device) *Tensor { return x[0].Tril(-1) }},
		{"Attention/dropout", func(g *Generator) []*Tensor {
			return ins(randF64(g, -1, 1, 1, 2, 5, 3), randF64(g, -1, 1, 1, 2, 6, 3), randF64(g, -1, 1, 1, 2, 6, 2))
		}, func(x []*Tensor, d Device) *Tensor {
			// A generator reset for every evaluation draws the same mask each time.
			return ScaledDotProductAttention(x[0], x[1], x[2], AttentionOptions{Causal: true, Dropout: 0.3, Gen: NewGenerator(5), Scale: 0.7})
		}},
		{"MultiHeadAttention/dropout", u(-1, 1, 2, 4, 12), func(x []*Tensor, d Device) *Tensor {
			return MultiHeadAttention(x[0], 2, AttentionOptions{Causal: true, Dropout: 0.25, Gen: NewGenerator(6)})
		}},
		{"Attention/strided-heads", u(-1, 1, 2, 5, 12), func(x []*Tensor, d Device) *Tensor {
			// Heads read in place from a [B, T, H, D] view of a projection, as a GPT does.
			h := x[0].Slice(2, 0, 8).Reshape(2, 5, 2, 4).Transpose(1, 2)
			v := x[0].Slice(2, 4, 12).Reshape(2, 5, 2, 4).Transpose(1, 2)
			return ScaledDotProductAttention(h, h, v, AttentionOptions{Causal: true})
		}},
		{"TopK", u(-1, 1, 3, 5), func(x []*Tensor, d Device) *Tensor { v, _ := x[0].TopK(2, 1, true); return v }},
		{"AvgPool2d/padded", u(-1, 1, 1, 2, 5, 5), func(x []*Tensor, d Device) *Tensor {
			return AvgPool2d(x[0], 3, AvgPool2dOptions{Stride: 2, Padding: 1, CeilMode: true, ExcludePad: true})
		}},
		{"AdaptiveAvgPool2d", u(-1, 1, 1, 2, 5, 4), func(x []*Tensor, d Device) *Tensor { return AdaptiveAvgPool2d(x[0], 3, 3) }},
		{"BatchNorm/train", norm3([]int{4, 3, 2, 2}, 3), func(x []*Tensor, d Device) *Tensor {
			return BatchNorm(x[0], nil, nil, x[1], x[2], true, 0.1, 1e-5)
		}},
		{"BatchNorm/eval", norm3([]int{3, 3, 2}, 3), func(x []*Tensor, d Device) *Tensor {
			m, v := aux(NewFloat64([]float64{0.1, -0.2, 0.3}, 3).To(d)), aux(NewFloat64([]float64{0.5, 1, 2}, 3).To(d))
			return BatchNorm(x[0], m, v, x[1], x[2], false, 0.1, 1e-5)
		}},
		{"SyncBatchNorm/two-processes", norm3([]int{3, 2, 4}, 2), func(x []*Tensor, d Device) *Tensor {
			// A second process whose batch is this one's shifted by 1: its sums are added.
			other := aux(NewFloat64(NewGenerator(5).Randn(3, 2, 4).MulScalar(1.5).AddScalar(0.5).Float64s(), 3, 2, 4).To(d))
			return SyncBatchNorm(x[0], nil, nil, x[1], x[2], 0.1, 1e-5, twoProcesses(other))
		}},
		{"GroupNorm", norm3([]int{2, 4, 3}, 4), func(x []*Tensor, d Device) *Tensor { return GroupNorm(x[0], 2, x[1], x[2], 1e-5) }},
		{"RMSNorm", two([]int{3, 4}, []int{4}), func(x []*Tensor, d Device) *Tensor { return RMSNorm(x[0], []int{4}, x[1], 1e-6) }},
	}
}

func TestGradientsMatchFiniteDifferences(t *testing.T) {
	for _, d := range testDevices {
		for _, c := range gradCases() {
			t.Run(d.String()+"/"+c.name, func(t *testing.T) {
				checkGrad(t, c.f, c.in(NewGenerator(1)), d)
			})
		}
	}
}

// TestGradCheckCatchesWrongGradient makes sure the checker itself can fail.
func TestGradCheckCatchesWrongGradient(t *testing.T) {
	ft := &testing.T{}
	done := make(chan bool)
	go func() {
		defer func() { done <- true }()
		x := randF64(NewGenerator(1), 0.5, 1, 3)
		wrong := func(xs []*Tensor, _ Device) *Tensor {
			out := xs[0].Detach().Exp()
			record(out, "WrongExp", []*Tensor{xs[0]}, func(g *Tensor) []*Tensor { return []*Tensor{g} })
			return out
		}
		checkGrad(ft, wrong, []*Tensor{x}, CPU)
	}()
	<-done
	if !ft.Failed() {
		t.Fatal("checkGrad accepted a wrong gradient")
	}
}
