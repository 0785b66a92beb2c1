package llama_test

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
	_ "github.com/goaccel/goaccel/transformers/llama"
)

func load(t *testing.T, dir string, task transformers.Task, numLabels int) transformers.Model {
	t.Helper()
	m, report, err := transformers.FromPretrained(testenv.TestData(t, dir), transformers.Options{Task: task, NumLabels: numLabels, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if task == transformers.CausalLM && !report.Empty() {
		t.Fatalf("loading the model transformers saved reports:\n%s", report)
	}
	return m
}

// realRows gathers the rows of x [B, T, C] where mask [B, T] is 1: [real tokens, C].
func realRows(x, mask *tensors.Tensor) *tensors.Tensor {
	b, t, c := x.Size(0), x.Size(1), x.Size(2)
	var idx []int64
	for i, v := range mask.Int64s() {
		if v != 0 {
			idx = append(idx, int64(i))
		}
	}
	return x.Reshape(b*t, c).IndexSelect(0, tensors.FromInt64(idx, len(idx)))
}

func padMask(ids *tensors.Tensor) *tensors.Tensor {
	v := ids.Int64s()
	m := make([]int64, len(v))
	for i, x := range v {
		if x != 0 {
			m[i] = 1
		}
	}
	return tensors.FromInt64(m, ids.Shape()...)
}

var models = []struct{ dir, key string }{
	{"tiny-llama", "llama"},               // grouped-query attention 4:2, untied head
	{"tiny-llama-scaled", "llama_scaled"}, // llama3 rope scaling, tied head, head_dim 16, 4:1, biases
	{"tiny-mistral", "mistral"},           // sliding window 6 over 8 tokens
}

// TestTinyLlamaMatchesTransformers compares, on a batch with a full, a right-padded and a
// left-padded row, the logits at the real tokens, the causal LM loss, the gradient of every
// parameter and the bf16 autocast logits with transformers' (testdata/make_decoder_fixtures.py).
func TestTinyLlamaMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	for _, c := range models {
		t.Run(c.dir, func(t *testing.T) {
			m := load(t, c.dir, transformers.CausalLM, 0)
			ids := fx["ids"]
			mask := padMask(ids)
			labels := ids.Int64s()
			for i, v := range mask.Int64s() {
				if v == 0 {
					labels[i] = -100
				}
			}
			out, err := m.Run(transformers.Inputs{InputIDs: ids, AttentionMask: mask, Labels: tensors.FromInt64(labels, ids.Shape()...)})
			if err != nil {
				t.Fatal(err)
			}
			testenv.Close(t, "logits at the real tokens", realRows(out.Logits, mask), realRows(fx[c.key+".logits"], mask), 1e-4)
			testenv.Close(t, "loss", out.Loss, fx[c.key+".loss"], 1e-5)
			out.Loss.Backward()
			n, worst := 0, 0.0
			seen := map[*tensors.Tensor]bool{}
			for _, p := range m.NamedParameters() {
				if seen[p.Param] {
					continue // a tied lm_head.weight: transformers lists the parameter once
				}
				seen[p.Param] = true
				want := fx[c.key+".grad."+p.Name]
				if want == nil {
					t.Fatalf("no reference gradient for %s", p.Name)
				}
				if p.Param.Grad() == nil {
					t.Fatalf("%s got no gradient", p.Name)
				}
				worst = max(worst, testenv.CloseScaled(t, "gradient of "+p.Name, p.Param.Grad(), want, 1e-4))
				n++
			}
			grads := 0
			for k := range fx {
				if strings.HasPrefix(k, c.key+".grad.") {
					grads++
				}
			}
			t.Logf("gradients of %d parameters: largest difference %.3g of the tensor's largest element", n, worst)
			if n != grads {
				t.Fatalf("compared %d gradients, transformers computed %d", n, grads)
			}

			var bf16 *tensors.Tensor
			tensors.NoGrad(func() {
				tensors.Autocast(tensors.BFloat16, func() {
					o, err := m.Run(transformers.Inputs{InputIDs: ids, AttentionMask: mask})
					if err != nil {
						t.Fatal(err)
					}
					bf16 = o.Logits
				})
			})
			ours, _ := testenv.Compare(realRows(bf16, mask), realRows(fx[c.key+".logits"], mask), 1)
			theirs, _ := testenv.Compare(realRows(fx[c.key+".bf16.logits"], mask), realRows(fx[c.key+".logits"], mask), 1)
			t.Logf("bf16 autocast logits vs float32: goaccel %s, transformers %s", ours, theirs)
			if ours.Abs > 1.5*theirs.Abs {
				t.Errorf("goaccel's bf16 logits are %.3g from the float32 reference, more than 1.5× transformers' own %.3g", ours.Abs, theirs.Abs)
			}
		})
	}
}

// TestLlamaGreedyGenerationMatchesTransformers generates from a left-padded batch with and
// without the KV cache: token for token what transformers' generate(do_sample=False) gives
// (one row stops at the end-of-sequence id and is filled with the pad id), each step's scores
// within 1e-4.
func TestLlamaGreedyGenerationMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, "tiny-llama", transformers.CausalLM, 0)
	prompts := fx["prompts"]
	eos := int(fx["llama.gen.eos"].Int64s()[0])
	want := fx["llama.gen.sequences"]
	for _, noCache := range []bool{false, true} {
		out, err := transformers.Generate(m, transformers.Inputs{InputIDs: prompts, AttentionMask: padMask(prompts)},
			transformers.GenerateOptions{MaxNewTokens: 12, EOSTokenIDs: []int{eos}, NoCache: noCache, OutputScores: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out.Sequences.Shape(), want.Shape()) || !slices.Equal(out.Sequences.Int64s(), want.Int64s()) {
			t.Fatalf("NoCache %v: generated\n%v\ntransformers generated\n%v", noCache, out.Sequences, want)
		}
		testenv.Close(t, "scores", tensors.Stack(out.Scores, 0), fx["llama.gen.scores"], 1e-4)
	}
}

// TestLlamaSequenceClassificationMatchesTransformers: the score reads each row's last token
// that is not padding (right- and left-padded rows), as LlamaForSequenceClassification does.
func TestLlamaSequenceClassificationMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, "tiny-llama", transformers.SequenceClassification, 3)
	tensors.NoGrad(func() { nn.StateDict(m)["score.weight"].CopyFrom(fx["llama.cls.score"]) })
	out, err := m.Run(transformers.Inputs{InputIDs: fx["ids"], AttentionMask: padMask(fx["ids"]), Labels: fx["cls.labels"]})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "logits", out.Logits, fx["llama.cls.logits"], 1e-4)
	testenv.Close(t, "loss", out.Loss, fx["llama.cls.loss"], 1e-5)
}

// TestLlamaGeneratesTheTokenizedPromptsAsTransformers: the tied, llama3-scaled model continues
// prompts that transformers' tokenizer padded on the left (the Llama 2 tokenizer fixture, its
// attention mask) with transformers' tokens, with and without the cache, stopping at the
// configuration's end-of-sequence id.
func TestLlamaGeneratesTheTokenizedPromptsAsTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, "tiny-llama-scaled", transformers.CausalLM, 0)
	want := fx["llama_scaled.text.sequences"]
	for _, noCache := range []bool{false, true} {
		out, err := transformers.Generate(m, transformers.Inputs{InputIDs: fx["llama_scaled.text.ids"], AttentionMask: fx["llama_scaled.text.mask"]},
			transformers.GenerateOptions{MaxNewTokens: 16, NoCache: noCache})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out.Sequences.Shape(), want.Shape()) || !slices.Equal(out.Sequences.Int64s(), want.Int64s()) {
			t.Fatalf("NoCache %v: generated\n%v\ntransformers generated\n%v", noCache, out.Sequences, want)
		}
	}
}

// TestMistralGenerationMatchesTransformers: generating past Mistral's sliding window gives
// transformers' tokens with the cache (the keys that slid out are left out) and without it (each
// query attends over its window).
func TestMistralGenerationMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, "tiny-mistral", transformers.CausalLM, 0)
	if m.Architecture() != "MistralForCausalLM" {
		t.Fatalf("architecture %s", m.Architecture())
	}
	prompts := fx["prompts"]
	want := fx["mistral.gen.sequences"]
	for _, noCache := range []bool{false, true} {
		g, err := transformers.Generate(m, transformers.Inputs{InputIDs: prompts, AttentionMask: padMask(prompts)},
			transformers.GenerateOptions{MaxNewTokens: 12, NoCache: noCache, OutputScores: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Sequences.Int64s(), want.Int64s()) {
			t.Fatalf("NoCache %v: generated\n%v\ntransformers generated\n%v", noCache, g.Sequences, want)
		}
		testenv.Close(t, "scores", tensors.Stack(g.Scores, 0), fx["mistral.gen.scores"], 1e-4)
	}
}
