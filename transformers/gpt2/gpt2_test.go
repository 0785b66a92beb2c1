package gpt2_test

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	_ "github.com/goaccel/goaccel/transformers/gpt2"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

func load(t *testing.T, task transformers.Task, numLabels int) transformers.Model {
	t.Helper()
	m, report, err := transformers.FromPretrained(testenv.TestData(t, "tiny-gpt2"), transformers.Options{Task: task, NumLabels: numLabels, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if task != transformers.SequenceClassification && !report.Empty() {
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

// TestTinyGPT2MatchesTransformers compares, on a batch with a full, a right-padded and a
// left-padded row, the logits at the real tokens, the causal LM loss, the gradient of every
// parameter and the bf16 autocast logits with transformers' (testdata/make_decoder_fixtures.py).
func TestTinyGPT2MatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, transformers.CausalLM, 0)
	ids := fx["ids"]
	mask := padMask(ids)
	labels := ids.Int64s()
	for i, v := range mask.Int64s() {
		if v == 0 {
			labels[i] = -100
		}
	}
	nn.SetTraining(m, false)
	out, err := m.Run(transformers.Inputs{InputIDs: ids, AttentionMask: mask, Labels: tensors.FromInt64(labels, ids.Shape()...)})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "logits at the real tokens", realRows(out.Logits, mask), realRows(fx["gpt2.logits"], mask), 1e-4)
	testenv.Close(t, "loss", out.Loss, fx["gpt2.loss"], 1e-5)
	out.Loss.Backward()
	n, worst := 0, 0.0
	seen := map[*tensors.Tensor]bool{}
	for _, p := range m.NamedParameters() {
		if seen[p.Param] {
			continue // the tied lm_head.weight: transformers lists the parameter once
		}
		seen[p.Param] = true
		want := fx["gpt2.grad."+p.Name]
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
		if strings.HasPrefix(k, "gpt2.grad.") {
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
	ours, _ := testenv.Compare(realRows(bf16, mask), realRows(fx["gpt2.logits"], mask), 1)
	theirs, _ := testenv.Compare(realRows(fx["gpt2.bf16.logits"], mask), realRows(fx["gpt2.logits"], mask), 1)
	t.Logf("bf16 autocast logits vs float32: goaccel %s, transformers %s", ours, theirs)
	if ours.Abs > 1.5*theirs.Abs {
		t.Errorf("goaccel's bf16 logits are %.3g from the float32 reference, more than 1.5× transformers' own %.3g", ours.Abs, theirs.Abs)
	}
}

// TestGPT2GreedyGenerationMatchesTransformers generates from a left-padded batch with and
// without the KV cache: token for token what transformers' generate(do_sample=False) gives
// (one row stops at the end-of-sequence id and is filled with the pad id), and each step's
// scores within 1e-4.
func TestGPT2GreedyGenerationMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, transformers.CausalLM, 0)
	prompts := fx["prompts"]
	eos := int(fx["gpt2.gen.eos"].Int64s()[0])
	want := fx["gpt2.gen.sequences"]
	for _, noCache := range []bool{false, true} {
		out, err := transformers.Generate(m, transformers.Inputs{InputIDs: prompts, AttentionMask: padMask(prompts)},
			transformers.GenerateOptions{MaxNewTokens: 12, EOSTokenIDs: []int{eos}, NoCache: noCache, OutputScores: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(out.Sequences.Shape(), want.Shape()) || !slices.Equal(out.Sequences.Int64s(), want.Int64s()) {
			t.Fatalf("NoCache %v: generated\n%v\ntransformers generated\n%v", noCache, out.Sequences, want)
		}
		scores := tensors.Stack(out.Scores, 0)
		testenv.Close(t, "scores", scores, fx["gpt2.gen.scores"], 1e-4)
	}
}

// TestGPT2SequenceClassificationMatchesTransformers: the score reads each row's last token that
// is not padding (right- and left-padded rows), as GPT2ForSequenceClassification does.
func TestGPT2SequenceClassificationMatchesTransformers(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, transformers.SequenceClassification, 3)
	tensors.NoGrad(func() { nn.StateDict(m)["score.weight"].CopyFrom(fx["gpt2.cls.score"]) })
	out, err := m.Run(transformers.Inputs{InputIDs: fx["ids"], AttentionMask: padMask(fx["ids"]), Labels: fx["cls.labels"]})
	if err != nil {
		t.Fatal(err)
	}
	testenv.Close(t, "logits", out.Logits, fx["gpt2.cls.logits"], 1e-4)
	testenv.Close(t, "loss", out.Loss, fx["gpt2.cls.loss"], 1e-5)
}
