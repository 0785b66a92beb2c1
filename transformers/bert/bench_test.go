package bert_test

import (
	"io"
	"testing"

	"github.com/goaccel/goaccel/internal/cputime"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// The benchmarks bench/minilm.sh runs beside transformers: MiniLM (22.7 M parameters) as a
// 3-label sequence classifier on a batch of 16 × 128 tokens, the last 32 positions of every
// other sequence padded. They skip when the MiniLM snapshot is not found (testenv.MiniLMDir).
const benchBatch, benchLen = 16, 128

func benchInputs() transformers.Inputs {
	g := tensors.NewGenerator(7)
	ids := g.RandInt(1000, 30000, benchBatch, benchLen).Int64s()
	mask := make([]int64, len(ids))
	for i := range mask {
		if (i/benchLen)%2 == 1 && i%benchLen >= benchLen-32 {
			ids[i] = 0
		} else {
			mask[i] = 1
		}
	}
	labels := make([]int64, benchBatch)
	for i := range labels {
		labels[i] = int64(i % 3)
	}
	return transformers.Inputs{InputIDs: tensors.FromInt64(ids, benchBatch, benchLen), AttentionMask: tensors.FromInt64(mask, benchBatch, benchLen),
		Labels: tensors.FromInt64(labels, benchBatch)}
}

func benchModel(b *testing.B) transformers.Model {
	tensors.ManualSeed(0)
	m, _, err := transformers.FromPretrained(testenv.MiniLMDir(b), transformers.Options{Task: transformers.SequenceClassification, NumLabels: 3, Log: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// timeSteps runs step once to warm up, then b.N times, reporting process CPU time per step.
func timeSteps(b *testing.B, step func()) {
	step()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for range b.N {
		step()
	}
	b.ReportMetric(float64(cputime.Process()-c0)/1e6/float64(b.N), "cpu-ms/op")
}

// inPrecision runs fn in float32 or under bfloat16 autocast.
func inPrecision(bf16 bool, fn func()) {
	if bf16 {
		tensors.Autocast(tensors.BFloat16, fn)
		return
	}
	fn()
}

func benchmarkForward(b *testing.B, bf16 bool) {
	m := benchModel(b)
	in := benchInputs()
	in.Labels = nil
	timeSteps(b, func() {
		tensors.NoGrad(func() {
			inPrecision(bf16, func() {
				out, err := m.Run(in)
				if err != nil {
					b.Fatal(err)
				}
				out.Logits.Float32s()
				out.Logits.Release()
				out.LastHiddenState.Release()
				out.PoolerOutput.Release()
			})
		})
	})
}

// BenchmarkMiniLMForward is inference: evaluation mode, no gradient.
func BenchmarkMiniLMForward(b *testing.B) { benchmarkForward(b, false) }

// BenchmarkMiniLMForwardBF16 is inference under bfloat16 autocast.
func BenchmarkMiniLMForwardBF16(b *testing.B) { benchmarkForward(b, true) }

func benchmarkTrainStep(b *testing.B, bf16 bool) {
	m := benchModel(b)
	nn.SetTraining(m, true)
	in := benchInputs()
	var decay, plain []*tensors.Tensor
	for _, p := range m.Parameters() {
		if p.Dim() >= 2 {
			decay = append(decay, p)
		} else {
			plain = append(plain, p)
		}
	}
	opt := optim.NewAdamWGroups([]optim.ParamGroup{{Params: decay, WeightDecay: 0.01}, {Params: plain}}, optim.AdamConfig{LR: 5e-5})
	timeSteps(b, func() {
		var out transformers.Output
		inPrecision(bf16, func() {
			var err error
			if out, err = m.Run(in); err != nil {
				b.Fatal(err)
			}
		})
		out.Loss.Backward()
		opt.Step()
		opt.ZeroGrad()
		out.Loss.Release()
		out.Logits.Release()
		out.LastHiddenState.Release()
		out.PoolerOutput.Release()
	})
}

// BenchmarkMiniLMTrainStep is one fine-tuning step in training mode (dropout on): forward with
// the loss, backward, AdamW with no decay for biases and LayerNorm weights, zero grad.
func BenchmarkMiniLMTrainStep(b *testing.B) { benchmarkTrainStep(b, false) }

// BenchmarkMiniLMTrainStepBF16 is the step under bfloat16 autocast.
func BenchmarkMiniLMTrainStepBF16(b *testing.B) { benchmarkTrainStep(b, true) }
