package gpt2_test

import (
	"io"
	"path/filepath"
	"slices"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// perturb changes every parameter a little, so that a saved folder holds goaccel's weights and
// not the fixture's.
func perturb(m transformers.Model) {
	tensors.NoGrad(func() {
		for _, p := range m.Parameters() {
			p.CopyFrom(p.MulScalar(1.01).AddScalar(0.001))
		}
	})
}

// TestSavePretrainedRoundTrips: a saved GPT-2 loads back with nothing missing and the same
// logits, its tied head stored once (as transformer.wte.weight, without lm_head.weight).
func TestSavePretrainedRoundTrips(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, transformers.CausalLM, 0)
	perturb(m)
	dir := t.TempDir()
	if err := transformers.SavePretrained(dir, m, transformers.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	sd, err := nn.LoadSafetensors(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if sd["lm_head.weight"] != nil || sd["transformer.wte.weight"] == nil {
		t.Fatal("the tied head should be saved once, as transformer.wte.weight")
	}
	back, report, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
	if err != nil || !report.Empty() {
		t.Fatalf("%v\n%s", err, report)
	}
	testenv.Close(t, "logits after the round trip", back.Forward(fx["ids"]), m.Forward(fx["ids"]), 0)
}

// TestTransformersLoadsWhatSavePretrainedWrites: transformers' from_pretrained loads a saved
// (changed) GPT2LMHeadModel and GPT2ForSequenceClassification with no key missing or
// unexpected and the head tied, computes the same logits, and generates the same tokens from
// a left-padded batch (Python, with $GOACCEL_TRANSFORMERS_PYTHON).
func TestTransformersLoadsWhatSavePretrainedWrites(t *testing.T) {
	testenv.Python(t)
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	lm := load(t, transformers.CausalLM, 0)
	cls := load(t, transformers.SequenceClassification, 3)
	perturb(lm)
	perturb(cls)
	root := t.TempDir()
	prompts, ids := fx["prompts"], fx["ids"]
	cases := []struct {
		m     transformers.Model
		saved testenv.Saved
	}{
		{lm, testenv.Saved{Dir: filepath.Join(root, "lm"), Auto: "AutoModelForCausalLM", Output: "logits", IDs: prompts, Mask: padMask(prompts), NewTokens: 10}},
		{cls, testenv.Saved{Dir: filepath.Join(root, "cls"), Auto: "AutoModelForSequenceClassification", Output: "logits", IDs: ids, Mask: padMask(ids)}},
	}
	var saved []testenv.Saved
	for _, c := range cases {
		if err := transformers.SavePretrained(c.saved.Dir, c.m, transformers.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		saved = append(saved, c.saved)
	}
	for i, r := range testenv.LoadWithTransformers(t, saved) {
		c := cases[i]
		if len(r.Missing)+len(r.Unexpected)+len(r.Mismatched) > 0 {
			t.Errorf("%s: transformers reports missing %v, unexpected %v, mismatched %v", c.saved.Dir, r.Missing, r.Unexpected, r.Mismatched)
		}
		out, err := c.m.Run(transformers.Inputs{InputIDs: c.saved.IDs, AttentionMask: c.saved.Mask})
		if err != nil {
			t.Fatal(err)
		}
		theirs := tensors.NewFloat64(r.Values, r.Shape...).AsType(tensors.Float32)
		if c.saved.NewTokens == 0 {
			testenv.Close(t, c.m.Architecture()+" logits, goaccel vs transformers on the saved folder", out.Logits, theirs, 1e-5)
			continue
		}
		testenv.Close(t, c.m.Architecture()+" logits at the real tokens, goaccel vs transformers on the saved folder", realRows(out.Logits, c.saved.Mask), realRows(theirs, c.saved.Mask), 1e-5)
		if !r.Tied {
			t.Errorf("transformers loaded the GPT-2 head untied")
		}
		g, err := transformers.Generate(c.m, transformers.Inputs{InputIDs: c.saved.IDs, AttentionMask: c.saved.Mask}, transformers.GenerateOptions{MaxNewTokens: c.saved.NewTokens})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Sequences.Int64s(), r.Sequences) {
			t.Errorf("goaccel generated %v, transformers %v from the saved folder", g.Sequences.Int64s(), r.Sequences)
		}
	}
}
