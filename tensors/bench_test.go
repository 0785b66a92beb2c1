package tensors

import (
	"math"
	"testing"

	"github.com/goaccel/goaccel/internal/cputime"
)

// mlp is the benchmark model: 784-512-512-10 with ReLU.
type mlp struct{ w1, b1, w2, b2, w3, b3 *Tensor }

func newMLP() *mlp {
	g := NewGenerator(1)
	p := func(out, in int) (*Tensor, *Tensor) {
		s := 1 / math.Sqrt(float64(in))
		w := g.Rand(out, in).MulScalar(2 * s).SubScalar(s).SetRequiresGrad(true)
		b := g.Rand(out).MulScalar(2 * s).SubScalar(s).SetRequiresGrad(true)
		return w, b
	}
	m := &mlp{}
	m.w1, m.b1 = p(512, 784)
	m.w2, m.b2 = p(512, 512)
	m.w3, m.b3 = p(10, 512)
	return m
}

func (m *mlp) params() []*Tensor { return []*Tensor{m.w1, m.b1, m.w2, m.b2, m.w3, m.b3} }

// loss releases each intermediate once the next op has used it (the op's autograd node keeps
// what the backward pass needs), so the step's memory is reused by the next step.
func (m *mlp) loss(x, y *Tensor) *Tensor {
	var ts []*Tensor
	keep := func(t *Tensor) *Tensor { ts = append(ts, t); return t }
	h := keep(Linear(x, m.w1, m.b1)).ReLU()
	h = keep(Linear(keep(h), m.w2, m.b2)).ReLU()
	l := CrossEntropy(keep(Linear(keep(h), m.w3, m.b3)), y)
	for _, t := range ts {
		t.Release()
	}
	return l
}

// step runs forward, backward and a plain SGD update (the optimizer package owns AdamW; this
// measures the engine). Gradients are dropped (set to none) as PyTorch's zero_grad does by
// default, or zeroed in place when inPlace is set.
func (m *mlp) step(x, y *Tensor, inPlace bool) float64 {
	l := m.loss(x, y)
	l.Backward()
	ps := m.params()
	gs := make([]*Tensor, len(ps))
	cfg := make([]SGDStepConfig, len(ps))
	for i, p := range ps {
		gs[i], cfg[i] = p.GradRef(), SGDStepConfig{LR: 0.01}
	}
	SGDStep(ps, gs, make([]*Tensor, len(ps)), cfg)
	for _, p := range ps {
		if inPlace {
			p.GradRef().Fill(0)
		} else {
			p.ZeroGrad()
		}
	}
	v := l.Item()
	l.Release()
	return v
}

// loop runs fn b.N times, reporting allocations and process CPU time per op beside wall time.
func loop(b *testing.B, fn func()) {
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for range b.N {
		fn()
	}
	b.ReportMetric(float64(cputime.Process()-c0)/1e3/float64(b.N), "cpu-us/op")
}

// BenchmarkMLPStep is one training step of MLP 784-512-512-10 at batch 128 (forward, cross
// entropy, backward, SGD). Compare with bench/tensors_torch.py's PyTorch step.
func BenchmarkMLPStep(b *testing.B) {
	benchMLPStep(b, func(step func()) { step() }, false)
}

// BenchmarkMLPStepZeroInPlace zeroes gradients in place instead of dropping them: the
// backward pass then adds into the existing gradients and recycles its own buffers, so a
// steady step allocates almost nothing.
func BenchmarkMLPStepZeroInPlace(b *testing.B) {
	benchMLPStep(b, func(step func()) { step() }, true)
}

// BenchmarkMLPStepBF16 is BenchmarkMLPStep under Autocast(BFloat16).
func BenchmarkMLPStepBF16(b *testing.B) {
	benchMLPStep(b, func(step func()) { Autocast(BFloat16, step) }, false)
}

// benchMLPStep warms an MLP up with three steps, then times b.N steps, each run through
// wrap (e.g. under Autocast), reporting CPU milliseconds per step.
func benchMLPStep(b *testing.B, wrap func(step func()), zeroInPlace bool) {
	m := newMLP()
	x, y := Randn(128, 784), RandInt(0, 10, 128)
	step := func() { m.step(x, y, zeroInPlace) }
	for range 3 {
		wrap(step)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for range b.N {
		wrap(step)
	}
	b.ReportMetric(float64(cputime.Process()-c0)/1e6/float64(b.N), "cpu-ms/op")
}

// BenchmarkAdd1M is PyTorch's x + y on two 1024×1024 float32 tensors, result freed: the Go
// program says it is done with the sum (Release), as dropping the last reference does in
// Python, so the next sum reuses its memory. It moves 12 MB (two operands read, one written).
// Each sum is read (one element): a deferred result nobody reads is never computed.
func BenchmarkAdd1M(b *testing.B) {
	x, y := Randn(1024, 1024), Randn(1024, 1024)
	b.SetBytes(3 * 4 << 20)
	loop(b, func() {
		z := x.Add(y)
		_ = z.At(0, 0)
		z.Release()
	})
}

// BenchmarkAdd1MDropped drops each sum without Release: it comes back to the pool after the
// next collection the pacer runs, having left the cache. The difference to Add1M is what
// releasing buys.
func BenchmarkAdd1MDropped(b *testing.B) {
	x, y := Randn(1024, 1024), Randn(1024, 1024)
	b.SetBytes(3 * 4 << 20)
	loop(b, func() { _ = x.Add(y).At(0, 0) })
}

// BenchmarkChain1M is x.Add(y).MulScalar(0.5) read and dropped: one fused pass, one result
// written (PyTorch writes two).
func BenchmarkChain1M(b *testing.B) {
	x, y := Randn(1024, 1024), Randn(1024, 1024)
	b.SetBytes(3 * 4 << 20)
	loop(b, func() { _ = x.Add(y).MulScalar(0.5).At(0, 0) })
}

// BenchmarkMemcpy12MB copies 6 MB with Go's copy: 12 MB of memory traffic, the same bytes
// Add1M moves, so their MB/s compare directly (the bound an elementwise op can reach).
func BenchmarkMemcpy12MB(b *testing.B) {
	src, dst := make([]float32, 3<<19), make([]float32, 3<<19)
	b.SetBytes(3 * 4 << 20)
	loop(b, func() { copy(dst, src) })
}

// BenchmarkSum1M sums 1M float32 values into one (the loss of BenchmarkConv2dForwardBackward's
// output, and its bias gradient, are sums of this size).
func BenchmarkSum1M(b *testing.B) {
	x := Randn(1024, 1024)
	b.SetBytes(4 << 20)
	loop(b, func() { x.Sum().Release() })
}

func BenchmarkAddBias(b *testing.B) {
	x, y := Randn(128, 512), Randn(512)
	loop(b, func() { x.Add(y).Release() })
}

func BenchmarkReLU(b *testing.B) {
	x := Randn(128, 512)
	loop(b, func() {
		r := x.ReLU()
		_ = r.At(0, 0) // computed: a deferred result nobody reads never is
		r.Release()
	})
}

func BenchmarkSoftmax(b *testing.B) {
	x := Randn(128, 1000)
	loop(b, func() { x.Softmax(1).Release() })
}

func BenchmarkCrossEntropyForwardBackward(b *testing.B) {
	x, y := Randn(128, 1000).SetRequiresGrad(true), RandInt(0, 1000, 128)
	loop(b, func() {
		CrossEntropy(x, y).Backward()
		x.ZeroGrad()
	})
}

func BenchmarkConv2dForwardBackward(b *testing.B) {
	x := Randn(32, 16, 28, 28)
	w := Randn(32, 16, 3, 3).SetRequiresGrad(true)
	bias := Zeros(32).SetRequiresGrad(true)
	loop(b, func() {
		// PyTorch frees the output and the loss when their last reference goes; Release says so.
		out := Conv2d(x, w, bias, 1, 1)
		loss := out.Sum()
		loss.Backward()
		out.Release()
		loss.Release()
		w.ZeroGrad()
		bias.ZeroGrad()
	})
}

// BenchmarkConv2dMNIST is the convolutions of PyTorch's MNIST example at its batch of 64, forward
// and backward as training runs them: conv1 (1→32 channels, 28×28, no padding: few input
// channels, the by-columns path) takes no input gradient, conv2 (32→64, 26×26) takes both.
func BenchmarkConv2dMNIST(b *testing.B) {
	for _, c := range []struct {
		name           string
		in, out, h     int
		inputGradients bool
	}{{"conv1", 1, 32, 28, false}, {"conv2", 32, 64, 26, true}} {
		b.Run(c.name, func(b *testing.B) {
			x := Randn(64, c.in, c.h, c.h).SetRequiresGrad(c.inputGradients)
			w := Randn(c.out, c.in, 3, 3).MulScalar(0.1).SetRequiresGrad(true)
			bias := Zeros(c.out).SetRequiresGrad(true)
			loop(b, func() {
				out := Conv2d(x, w, bias, 1, 0)
				loss := out.Sum()
				loss.Backward()
				out.Release()
				loss.Release()
				w.ZeroGrad()
				bias.ZeroGrad()
				x.ZeroGrad()
			})
		})
	}
}

// BenchmarkMatMul compares float32 matmul with Autocast's bfloat16 and float16 paths (operand
// rounding included) at 1024×1024.
func BenchmarkMatMul(b *testing.B) {
	x, y := Randn(1024, 1024), Randn(1024, 1024)
	flops := 2.0 * 1024 * 1024 * 1024
	for _, c := range []struct {
		name string
		dt   DType
	}{{"fp32", Float32}, {"bf16", BFloat16}, {"fp16", Float16}} {
		b.Run(c.name, func(b *testing.B) {
			run := func() { x.MatMul(y) }
			if c.dt != Float32 {
				run = func() { Autocast(c.dt, func() { x.MatMul(y) }) }
			}
			c0 := cputime.Process()
			loop(b, run)
			b.ReportMetric(flops*float64(b.N)/(float64(cputime.Process()-c0)/1e9)/1e9, "cpu-GFLOP/s")
		})
	}
}

// BenchmarkCausalAttention is MultiHeadAttention's forward and backward at bench/gpt.sh's two
// sizes: the char GPT's (16 × 64 tokens, 4 heads of 32) and shakespeare-char's (8 × 256 tokens,
// 6 heads of 64), causal, no dropout.
func BenchmarkCausalAttention(b *testing.B) {
	for _, s := range []struct {
		name           string
		batch, t, c, h int
	}{{"char", 16, 64, 128, 4}, {"shakespeare", 8, 256, 384, 6}} {
		b.Run(s.name, func(b *testing.B) {
			qkv := Randn(s.batch, s.t, 3*s.c).SetRequiresGrad(true)
			g := Randn(s.batch, s.t, s.c)
			loop(b, func() {
				y := MultiHeadAttention(qkv, s.h, AttentionOptions{Causal: true})
				y.BackwardWith(g)
				qkv.ZeroGrad()
			})
		})
	}
}
