package llama_test

import (
	"io"
	"os"
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

// TestSavePretrainedRoundTrips: a saved Llama loads back with nothing missing and the same
// logits; lm_head.weight is stored when untied and left out when tie_word_embeddings ties it.
func TestSavePretrainedRoundTrips(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	for _, c := range []struct {
		dir  string
		tied bool
	}{{"tiny-llama", false}, {"tiny-llama-scaled", true}, {"tiny-mistral", false}} {
		t.Run(c.dir, func(t *testing.T) {
			m := load(t, c.dir, transformers.CausalLM, 0)
			perturb(m)
			dir := t.TempDir()
			if err := transformers.SavePretrained(dir, m, transformers.SaveOptions{}); err != nil {
				t.Fatal(err)
			}
			sd, err := nn.LoadSafetensors(filepath.Join(dir, "model.safetensors"))
			if err != nil {
				t.Fatal(err)
			}
			if (sd["lm_head.weight"] == nil) != c.tied || sd["model.embed_tokens.weight"] == nil {
				t.Fatalf("tied %v: lm_head.weight saved: %v", c.tied, sd["lm_head.weight"] != nil)
			}
			back, report, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
			if err != nil || !report.Empty() {
				t.Fatalf("%v\n%s", err, report)
			}
			testenv.Close(t, "logits after the round trip", back.Forward(fx["ids"]), m.Forward(fx["ids"]), 0)
		})
	}
}

// TestTransformersLoadsWhatSavePretrainedWrites: transformers' from_pretrained loads saved
// (changed) LlamaForCausalLM (untied; tied with llama3 rope scaling, head_dim and biases),
// MistralForCausalLM and LlamaForSequenceClassification with no key missing or unexpected and
// the head tied as the configuration says, computes the same logits, and generates the same
// tokens from a left-padded batch (Python, with $GOACCEL_TRANSFORMERS_PYTHON).
func TestTransformersLoadsWhatSavePretrainedWrites(t *testing.T) {
	testenv.Python(t)
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	root := t.TempDir()
	prompts, ids := fx["prompts"], fx["ids"]
	lm := func(dir string) testenv.Saved {
		return testenv.Saved{Dir: filepath.Join(root, dir), Auto: "AutoModelForCausalLM", Output: "logits", IDs: prompts, Mask: padMask(prompts), NewTokens: 10}
	}
	cases := []struct {
		m     transformers.Model
		tied  bool
		saved testenv.Saved
	}{
		{load(t, "tiny-llama", transformers.CausalLM, 0), false, lm("llama")},
		{load(t, "tiny-llama-scaled", transformers.CausalLM, 0), true, lm("scaled")},
		{load(t, "tiny-mistral", transformers.CausalLM, 0), false, lm("mistral")},
		{load(t, "tiny-llama", transformers.SequenceClassification, 3), false,
			testenv.Saved{Dir: filepath.Join(root, "cls"), Auto: "AutoModelForSequenceClassification", Output: "logits", IDs: ids, Mask: padMask(ids)}},
	}
	var saved []testenv.Saved
	for _, c := range cases {
		perturb(c.m)
		if err := transformers.SavePretrained(c.saved.Dir, c.m, transformers.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
		saved = append(saved, c.saved)
	}
	for i, r := range testenv.LoadWithTransformers(t, saved) {
		c := cases[i]
		name := c.m.Architecture() + " (" + filepath.Base(c.saved.Dir) + ")"
		if len(r.Missing)+len(r.Unexpected)+len(r.Mismatched) > 0 {
			t.Errorf("%s: transformers reports missing %v, unexpected %v, mismatched %v", name, r.Missing, r.Unexpected, r.Mismatched)
		}
		out, err := c.m.Run(transformers.Inputs{InputIDs: c.saved.IDs, AttentionMask: c.saved.Mask})
		if err != nil {
			t.Fatal(err)
		}
		theirs := tensors.NewFloat64(r.Values, r.Shape...).AsType(tensors.Float32)
		if c.saved.NewTokens == 0 {
			testenv.Close(t, name+" logits, goaccel vs transformers on the saved folder", out.Logits, theirs, 1e-5)
			continue
		}
		testenv.Close(t, name+" logits at the real tokens, goaccel vs transformers on the saved folder", realRows(out.Logits, c.saved.Mask), realRows(theirs, c.saved.Mask), 1e-5)
		if r.Tied != c.tied {
			t.Errorf("%s: transformers loaded the head tied %v, want %v", name, r.Tied, c.tied)
		}
		g, err := transformers.Generate(c.m, transformers.Inputs{InputIDs: c.saved.IDs, AttentionMask: c.saved.Mask}, transformers.GenerateOptions{MaxNewTokens: c.saved.NewTokens})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Sequences.Int64s(), r.Sequences) {
			t.Errorf("%s: goaccel generated %v, transformers %v from the saved folder", name, g.Sequences.Int64s(), r.Sequences)
		}
	}
}

// TestGenerationConfigFileGivesTheTokenIDs: a snapshot's generation_config.json replaces
// config.json's end-of-sequence and pad ids for generation (as transformers' generation_config
// does: here two end ids, the second one stopping row 1), and SavePretrained writes it back.
func TestGenerationConfigFileGivesTheTokenIDs(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	dir := t.TempDir()
	for _, f := range []string{"config.json", "model.safetensors"} {
		b, err := os.ReadFile(filepath.Join(testenv.TestData(t, "tiny-llama"), f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gen := []byte(`{"bos_token_id": 1, "eos_token_id": [7, 90], "pad_token_id": 3, "do_sample": true, "temperature": 0.6}` + "\n")
	if err := os.WriteFile(filepath.Join(dir, "generation_config.json"), gen, 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	prompt := fx["prompts"].Slice(0, 1, 2).Contiguous()
	out, err := transformers.Generate(m, transformers.Inputs{InputIDs: prompt}, transformers.GenerateOptions{MaxNewTokens: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.Sequences.Int64s(), []int64{5, 60, 12, 3, 44, 9, 134, 253, 90}; !slices.Equal(got, want) {
		t.Fatalf("generated %v, want %v (stopping at 90, an end id of generation_config.json only)", got, want)
	}
	saved := t.TempDir()
	if err := transformers.SavePretrained(saved, m, transformers.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(saved, "generation_config.json")); err != nil || string(b) != string(gen) {
		t.Fatalf("generation_config.json written back: %q, %v", b, err)
	}
}
