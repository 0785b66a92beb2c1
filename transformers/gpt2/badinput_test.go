package gpt2_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/gpt2"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestBadConfigurationsAreClearErrors: a config.json the model cannot be built from is an error
// naming the key and the value, from FromPretrained as from the constructors.
func TestBadConfigurationsAreClearErrors(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"config.json", "model.safetensors"} {
		b, err := os.ReadFile(filepath.Join(testenv.TestData(t, "tiny-gpt2"), f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "config.json" {
			b = []byte(strings.Replace(string(b), `"activation_function": "gelu_new"`, `"activation_function": "xielu"`, 1))
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
	t.Log(err)
	if err == nil || !strings.Contains(err.Error(), `config key activation_function: activation "xielu" is not supported (supported: gelu,`) {
		t.Fatalf("error %v, want one naming activation_function xielu", err)
	}
	for _, c := range []struct {
		name string
		edit func(*gpt2.Config)
		want string
	}{
		{"heads that do not divide the features", func(c *gpt2.Config) { c.NHead = 5 }, "n_embd: 32 is not a multiple of n_head 5"},
		{"cross-attention", func(c *gpt2.Config) { c.AddCrossAttention = true }, "add_cross_attention: GPT-2 with cross-attention"},
		{"dropout of 1", func(c *gpt2.Config) { c.AttnPdrop = 1 }, "attn_pdrop: 1 is not a probability"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := gpt2.NewConfig()
			cfg.VocabSize, cfg.NEmbd, cfg.NHead, cfg.NLayer, cfg.NPositions = 16, 32, 4, 1, 8
			c.edit(cfg)
			_, err := gpt2.NewLMHeadModel(cfg)
			t.Log(err)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// TestLongerThanThePositionsIsAClearError: GPT-2 has n_positions learned positions; a longer
// input, or a prompt that generation would take past them, is an error naming n_positions.
func TestLongerThanThePositionsIsAClearError(t *testing.T) {
	m := load(t, transformers.CausalLM, 0)
	ids := func(n int) *tensors.Tensor { return tensors.FromInt64(make([]int64, n), 1, n) }
	_, err := m.Run(transformers.Inputs{InputIDs: ids(65)})
	if err == nil || !strings.Contains(err.Error(), "GPT2LMHeadModel: a sequence of 65 tokens is longer than the 64 the model has positions for (n_positions 64)") {
		t.Fatalf("Run: %v", err)
	}
	_, err = transformers.Generate(m, transformers.Inputs{InputIDs: ids(60)}, transformers.GenerateOptions{MaxNewTokens: 10})
	if err == nil || !strings.Contains(err.Error(), "a prompt of 60 tokens and MaxNewTokens 10 need 69 positions, the model has 64") {
		t.Fatalf("Generate: %v", err)
	}
	// The last generated token is not run through the model: 60 + 5 tokens use 64 positions.
	if _, err := transformers.Generate(m, transformers.Inputs{InputIDs: ids(60)}, transformers.GenerateOptions{MaxNewTokens: 5, IgnoreEOS: true}); err != nil {
		t.Fatalf("60 + 5 tokens fit 64 positions: %v", err)
	}
}
