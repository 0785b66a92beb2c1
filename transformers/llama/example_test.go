package llama_test

import (
	"fmt"
	"io"
	"log"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tokenizers"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/llama"
)

// From text to text: a tokenizer (tokenizer.json and tokenizer_config.json) pads the prompts on
// the left, the model continues them greedily with its KV cache, the tokenizer decodes the new
// tokens. The folders are small random models (testdata/make_decoder_fixtures.py), so the text
// is nonsense, and the same nonsense transformers generates; a real snapshot folder
// (Llama 3.2 1B, TinyLlama, …) loads the same way.
func Example_generateText() {
	tok, err := tokenizers.FromPretrained("../../tokenizers/testdata/llama2")
	if err != nil {
		log.Fatal(err)
	}
	model, _, err := transformers.FromPretrained("../testdata/tiny-llama-scaled", transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	batch, err := tok.Batch([]string{"The cat sat on the", "Go"}, tokenizers.Options{Padding: tokenizers.PadLongest, PaddingSide: "left"})
	if err != nil {
		log.Fatal(err)
	}
	ids, _ := batch.InputIDsTensor()
	mask, _ := batch.AttentionMaskTensor()
	out, err := transformers.Generate(model, transformers.Inputs{InputIDs: ids, AttentionMask: mask}, transformers.GenerateOptions{MaxNewTokens: 8})
	if err != nil {
		log.Fatal(err)
	}
	n := ids.Size(1)
	for r := range out.Sequences.Size(0) {
		var gen []int
		for _, id := range out.Sequences.Slice(0, r, r+1).Slice(1, n, out.Sequences.Size(1)).Contiguous().Int64s() {
			gen = append(gen, int(id))
		}
		text, _ := tok.Decode(gen, true)
		fmt.Printf("%q\n", text)
	}
	// Output:
	// "aryaryaryageageageageage"
	// "Sp Sp Sp Sp Sp Sp Sp Sp"
}

// A Llama from a configuration alone, with fresh weights: grouped-query attention (4 query
// heads share 2 key/value heads), scored on a batch of token ids.
func ExampleNewForCausalLM() {
	tensors.ManualSeed(0)
	cfg := llama.NewConfig()
	kv := 2
	cfg.VocabSize, cfg.HiddenSize, cfg.IntermediateSize, cfg.NumHiddenLayers, cfg.NumAttentionHeads, cfg.NumKeyValueHeads = 100, 32, 64, 2, 4, &kv
	m, err := llama.NewForCausalLM(cfg)
	if err != nil {
		log.Fatal(err)
	}
	logits := m.Forward(tensors.FromInt64([]int64{1, 5, 9, 2}, 1, 4))
	fmt.Println(m.NamedParameters()[2].Name, m.Model.Layers[0].SelfAttn.KProj.Weight.Shape(), logits.Shape())
	// Output: model.layers.0.self_attn.q_proj.weight [16 32] [1 4 100]
}
