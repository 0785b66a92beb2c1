package llama_test

import (
	"fmt"
	"testing"

	"github.com/goaccel/goaccel/internal/cputime"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/llama"
)

// benchModel is a small Llama with fresh weights (19.4 M parameters): 4 layers of 512 features,
// 8 query heads over 2 key/value heads of 64, SwiGLU 1376, vocabulary 8192, untied head.
func benchModel(b *testing.B) *llama.ForCausalLM {
	tensors.ManualSeed(0)
	cfg := llama.NewConfig()
	kv := 2
	cfg.VocabSize, cfg.HiddenSize, cfg.IntermediateSize, cfg.NumHiddenLayers, cfg.NumAttentionHeads, cfg.NumKeyValueHeads = 8192, 512, 1376, 4, 8, &kv
	m, err := llama.NewForCausalLM(cfg)
	if err != nil {
		b.Fatal(err)
	}
	nn.SetTraining(m, false)
	return m
}

func prompt(batch, n int) *tensors.Tensor {
	return tensors.NewGenerator(1).RandInt(3, 8000, batch, n)
}

// timeOps runs op once to warm up, then b.N times, reporting process CPU time per op.
func timeOps(b *testing.B, op func()) {
	op()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for range b.N {
		op()
	}
	b.ReportMetric(float64(cputime.Process()-c0)/1e6/float64(b.N), "cpu-ms/op")
}

// BenchmarkLlamaDecodeStep is one decoding step over a KV cache holding 128 tokens: one new token
// per row through the model (the grouped heads read in place), the last position's logits.
func BenchmarkLlamaDecodeStep(b *testing.B) {
	for _, batch := range []int{1, 8} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			m := benchModel(b)
			cache := m.NewKVCache(batch, 129)
			tensors.NoGrad(func() {
				if _, err := m.Run(transformers.Inputs{InputIDs: prompt(batch, 128), PastKeyValues: cache}); err != nil {
					b.Fatal(err)
				}
				next := prompt(batch, 1)
				timeOps(b, func() {
					o, err := m.Run(transformers.Inputs{InputIDs: next, PastKeyValues: cache, LogitsToKeep: 1})
					if err != nil {
						b.Fatal(err)
					}
					o.Logits.Float32s()
					o.Logits.Release()
					o.LastHiddenState.Release()
					cache.Crop(128)
				})
			})
		})
	}
}

// BenchmarkLlamaGenerate is greedy generation of 64 tokens after a 32-token prompt, batch 1,
// with the KV cache and without it (every step recomputing the whole sequence); tokens/s counts
// the generated tokens.
func BenchmarkLlamaGenerate(b *testing.B) {
	for _, noCache := range []bool{false, true} {
		b.Run(fmt.Sprintf("cache=%v", !noCache), func(b *testing.B) {
			m := benchModel(b)
			in := transformers.Inputs{InputIDs: prompt(1, 32)}
			opts := transformers.GenerateOptions{MaxNewTokens: 64, IgnoreEOS: true, NoCache: noCache}
			timeOps(b, func() {
				if _, err := transformers.Generate(m, in, opts); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(64*b.N)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}
