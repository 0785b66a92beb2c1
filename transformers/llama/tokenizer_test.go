package llama_test

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/goaccel/goaccel/tokenizers"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/testenv"
)

// TestGenerationFromTextMatchesTransformers goes from text to text with goaccel alone: the
// Llama 2 tokenizer fixture (tokenizer.json) encodes three prompts padded on the left with the
// ids transformers' tokenizer gave, the tied llama3-scaled model continues them, and the new
// tokens decode to the text transformers' batch_decode gave.
func TestGenerationFromTextMatchesTransformers(t *testing.T) {
	fx, md := testenv.Fixture(t, "decoders.safetensors")
	tok, err := tokenizers.FromPretrained(testenv.Root(t) + "/tokenizers/testdata/llama2")
	if err != nil {
		t.Fatal(err)
	}
	prompts := strings.Split(md["llama_scaled.prompts"], "\n")
	batch, err := tok.Batch(prompts, tokenizers.Options{Padding: tokenizers.PadLongest, PaddingSide: "left"})
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := batch.InputIDsTensor()
	mask, _ := batch.AttentionMaskTensor()
	if !slices.Equal(ids.Int64s(), fx["llama_scaled.text.ids"].Int64s()) || !slices.Equal(mask.Int64s(), fx["llama_scaled.text.mask"].Int64s()) {
		t.Fatalf("goaccel's tokenizer gave %v (mask %v), transformers' %v", ids, mask, fx["llama_scaled.text.ids"])
	}
	m, _, err := transformers.FromPretrained(testenv.TestData(t, "tiny-llama-scaled"), transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	out, err := transformers.Generate(m, transformers.Inputs{InputIDs: ids, AttentionMask: mask}, transformers.GenerateOptions{MaxNewTokens: 16})
	if err != nil {
		t.Fatal(err)
	}
	n := ids.Size(1)
	var texts []string
	for r := range out.Sequences.Size(0) {
		row := out.Sequences.Slice(0, r, r+1).Slice(1, n, out.Sequences.Size(1)).Contiguous().Int64s()
		gen := make([]int, len(row))
		for i, id := range row {
			gen[i] = int(id)
		}
		s, err := tok.Decode(gen, true)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, s)
	}
	want := strings.Split(md["llama_scaled.texts"], "\n")
	if !slices.Equal(texts, want) {
		t.Fatalf("goaccel generated %q, transformers %q", texts, want)
	}
}
