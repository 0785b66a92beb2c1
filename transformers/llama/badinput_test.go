package llama_test

import (
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/llama"
)

// TestBadConfigurationsAreClearErrors: a configuration the model cannot be built from is an
// error naming the key and the value.
func TestBadConfigurationsAreClearErrors(t *testing.T) {
	small := func() *llama.Config {
		c := llama.NewConfig()
		c.VocabSize, c.HiddenSize, c.IntermediateSize, c.NumHiddenLayers, c.NumAttentionHeads = 32, 16, 32, 1, 4
		return c
	}
	three, odd := 3, 5
	for _, c := range []struct {
		name string
		edit func(*llama.Config)
		want string
	}{
		{"key/value heads that do not divide the heads", func(c *llama.Config) { c.NumKeyValueHeads = &three },
			"num_key_value_heads: 3 does not divide num_attention_heads 4"},
		{"unsupported rope type", func(c *llama.Config) { c.RopeParameters = map[string]any{"rope_type": "yarn", "factor": 4.0} },
			`rope_parameters: rope_type "yarn" is not supported (supported: [default linear llama3])`},
		{"unsupported rope type in rope_scaling", func(c *llama.Config) { c.RopeScaling = map[string]any{"type": "dynamic", "factor": 2.0} },
			`rope_scaling: rope_type "dynamic" is not supported`},
		{"llama3 scaling without its factors", func(c *llama.Config) { c.RopeParameters = map[string]any{"rope_type": "llama3", "factor": 8.0} },
			`rope_type "llama3" needs low_freq_factor`},
		{"partial rotary factor", func(c *llama.Config) {
			c.RopeParameters = map[string]any{"rope_type": "default", "partial_rotary_factor": 0.5}
		}, "partial_rotary_factor: 0.5 is not supported"},
		{"unsupported activation", func(c *llama.Config) { c.HiddenAct = "xielu" }, `hidden_act: activation "xielu" is not supported (supported: gelu,`},
		{"odd head size", func(c *llama.Config) { c.HeadDim = &odd }, "head_dim: 5 must be positive and even"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := small()
			c.edit(cfg)
			_, err := llama.NewForCausalLM(cfg)
			t.Log(err)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

// TestBadInputsAreClearErrors: inputs a Llama cannot take are errors naming them.
func TestBadInputsAreClearErrors(t *testing.T) {
	m := load(t, "tiny-llama", transformers.CausalLM, 0)
	ids := tensors.FromInt64([]int64{5, 6, 7, 8}, 2, 2)
	cache := m.(transformers.GenerativeModel).NewKVCache(2, 8)
	tensors.NoGrad(func() {
		if _, err := m.Run(transformers.Inputs{InputIDs: ids, PastKeyValues: cache}); err != nil {
			t.Fatal(err)
		}
	})
	for _, c := range []struct {
		name string
		in   transformers.Inputs
		want string
	}{
		{"two new tokens after cached ones", transformers.Inputs{InputIDs: ids, PastKeyValues: cache}, "already holds 2 tokens: give one new token per call"},
		{"a mask without the cached tokens", transformers.Inputs{InputIDs: ids.Slice(1, 0, 1).Contiguous(), PastKeyValues: cache, AttentionMask: tensors.Ones(2, 1)}, "AttentionMask must be [2 3]"},
		{"a cache of another batch", transformers.Inputs{InputIDs: ids.Slice(0, 0, 1).Contiguous(), PastKeyValues: cache}, "holds 2 rows, InputIDs has 1"},
		{"labels and logits to keep", transformers.Inputs{InputIDs: ids, Labels: ids, LogitsToKeep: 1}, "leave LogitsToKeep at 0"},
		{"a cache while recording gradients", transformers.Inputs{InputIDs: ids, PastKeyValues: m.(transformers.GenerativeModel).NewKVCache(2, 8)}, "run the model under tensors.NoGrad"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := m.Run(c.in)
			t.Log(err)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}
