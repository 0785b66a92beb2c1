package llama_test

import (
	"slices"
	"testing"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestCachedStepsMatchTheFullSequence runs a padded batch (left and right) through the model once
// whole and once as a prompt then token by token over the KV cache: every position's logits
// agree (the cached path attends over the cache with the mask, the grouped heads read in place,
// Mistral's window over the last keys).
func TestCachedStepsMatchTheFullSequence(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	for _, c := range models {
		t.Run(c.dir, func(t *testing.T) {
			m := load(t, c.dir, transformers.CausalLM, 0)
			ids := fx["ids"] // 8 tokens: past Mistral's window of 6
			b, n := ids.Size(0), ids.Size(1)
			mask := padMask(ids)
			tensors.NoGrad(func() {
				full, err := m.Run(transformers.Inputs{InputIDs: ids, AttentionMask: mask})
				if err != nil {
					t.Fatal(err)
				}
				cache := m.(transformers.GenerativeModel).NewKVCache(b, n)
				const prompt = 3
				out, err := m.Run(transformers.Inputs{InputIDs: ids.Slice(1, 0, prompt).Contiguous(), AttentionMask: mask.Slice(1, 0, prompt).Contiguous(), PastKeyValues: cache})
				if err != nil {
					t.Fatal(err)
				}
				steps := []*tensors.Tensor{out.Logits}
				for j := prompt; j < n; j++ {
					o, err := m.Run(transformers.Inputs{InputIDs: ids.Slice(1, j, j+1).Contiguous(), AttentionMask: mask.Slice(1, 0, j+1).Contiguous(),
						PastKeyValues: cache, LogitsToKeep: 1})
					if err != nil {
						t.Fatal(err)
					}
					steps = append(steps, o.Logits)
				}
				if cache.Len() != n {
					t.Fatalf("the cache holds %d tokens, want %d", cache.Len(), n)
				}
				got := tensors.Cat(steps, 1)
				if !slices.Equal(got.Shape(), full.Logits.Shape()) {
					t.Fatalf("cached logits %v, full %v", got.Shape(), full.Logits.Shape())
				}
				testenv.Close(t, "logits over the cache vs the full sequence", realRows(got, mask), realRows(full.Logits, mask), 1e-5)
			})
		})
	}
}

// TestPaddedPromptsGenerateWhatTheyGenerateAlone: positions from the attention mask make a
// left-padded prompt continue as it does alone.
func TestPaddedPromptsGenerateWhatTheyGenerateAlone(t *testing.T) {
	fx, _ := testenv.Fixture(t, "decoders.safetensors")
	m := load(t, "tiny-llama", transformers.CausalLM, 0)
	prompts := fx["prompts"]
	opts := transformers.GenerateOptions{MaxNewTokens: 8, IgnoreEOS: true}
	batch, err := transformers.Generate(m, transformers.Inputs{InputIDs: prompts, AttentionMask: padMask(prompts)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	n := prompts.Size(1)
	for r := range prompts.Size(0) {
		var real []int64
		for _, id := range prompts.Slice(0, r, r+1).Contiguous().Int64s() {
			if id != 0 {
				real = append(real, id)
			}
		}
		alone, err := transformers.Generate(m, transformers.Inputs{InputIDs: tensors.FromInt64(real, 1, len(real))}, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := batch.Sequences.Slice(0, r, r+1).Slice(1, n, n+8).Contiguous().Int64s()
		want := alone.Sequences.Slice(1, len(real), len(real)+8).Contiguous().Int64s()
		if !slices.Equal(got, want) {
			t.Errorf("row %d: in the padded batch %v, alone %v", r, got, want)
		}
	}
}

// TestCropReusesAPrompt: after Crop back to the prompt, a step gives the logits it gave the first
// time (the cached keys past the prompt are forgotten, not attended).
func TestCropReusesAPrompt(t *testing.T) {
	m := load(t, "tiny-llama", transformers.CausalLM, 0)
	cache := m.(transformers.GenerativeModel).NewKVCache(1, 8)
	prompt := tensors.FromInt64([]int64{5, 60, 12, 3}, 1, 4)
	tensors.NoGrad(func() {
		if _, err := m.Run(transformers.Inputs{InputIDs: prompt, PastKeyValues: cache}); err != nil {
			t.Fatal(err)
		}
		step := func(id int64) *tensors.Tensor {
			o, err := m.Run(transformers.Inputs{InputIDs: tensors.FromInt64([]int64{id}, 1, 1), PastKeyValues: cache})
			if err != nil {
				t.Fatal(err)
			}
			return o.Logits
		}
		first := step(44)
		step(9)
		cache.Crop(4)
		if cache.Len() != 4 {
			t.Fatalf("cropped to %d tokens, want 4", cache.Len())
		}
		testenv.Close(t, "the step after Crop", step(44), first, 0)
		cache.Crop(-2)
		if cache.Len() != 3 {
			t.Fatalf("Crop(-2) of 5 tokens left %d", cache.Len())
		}
	})
}
