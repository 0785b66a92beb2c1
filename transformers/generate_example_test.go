package transformers_test

import (
	"fmt"
	"io"
	"log"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	_ "github.com/goaccel/goaccel/transformers/gpt2"
	_ "github.com/goaccel/goaccel/transformers/llama"
)

// Greedy generation from a batch of two prompts of different lengths, padded on the left (pad
// id 0) with the attention mask saying so: each continues as it would alone. testdata/tiny-gpt2
// is a small random GPT-2 that transformers saved; its generate(do_sample=False) gives the same
// tokens.
func ExampleGenerate() {
	model, _, err := transformers.FromPretrained("testdata/tiny-gpt2", transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	prompts := tensors.FromInt64([]int64{0, 0, 5, 17, 88, 9, 5, 60, 12, 3, 44, 9}, 2, 6)
	mask := tensors.FromInt64([]int64{0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 2, 6)
	out, err := transformers.Generate(model, transformers.Inputs{InputIDs: prompts, AttentionMask: mask},
		transformers.GenerateOptions{MaxNewTokens: 6})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Sequences)
	// Output:
	// tensor([[  0,   0,   5,  17,  88,   9, 114, 114, 114, 114, 114, 114],
	//         [  5,  60,  12,   3,  44,   9,  57, 114, 114, 114, 114, 232]])
}

// Sampling: temperature, top-k and top-p shape the distribution each token is drawn from, and a
// seeded generator makes the draws repeat.
func ExampleGenerate_sampling() {
	model, _, err := transformers.FromPretrained("testdata/tiny-llama", transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	prompt := tensors.FromInt64([]int64{5, 60, 12, 3}, 1, 4)
	for range 2 {
		out, err := transformers.Generate(model, transformers.Inputs{InputIDs: prompt}, transformers.GenerateOptions{
			MaxNewTokens: 8, DoSample: true, Temperature: 0.8, TopK: 50, TopP: 0.95, Generator: tensors.NewGenerator(42)})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(out.Sequences.Int64s())
	}
	// Output:
	// [5 60 12 3 195 10 196 56 253 250 143 177]
	// [5 60 12 3 195 10 196 56 253 250 143 177]
}

// Decoding token by token with a KV cache, as Generate does inside: the prompt fills the cache,
// then each step runs one token, attending over what the cache holds.
func ExampleKVCache() {
	model, _, err := transformers.FromPretrained("testdata/tiny-llama", transformers.Options{Task: transformers.CausalLM, Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	lm := model.(transformers.GenerativeModel)
	tokens := []int64{5, 60, 12, 3}
	cache := lm.NewKVCache(1, len(tokens)+4)
	next := tensors.FromInt64(tokens, 1, len(tokens))
	tensors.NoGrad(func() {
		for range 4 {
			out, err := model.Run(transformers.Inputs{InputIDs: next, PastKeyValues: cache, LogitsToKeep: 1})
			if err != nil {
				log.Fatal(err)
			}
			id := out.Logits.Reshape(-1).ArgMax(0, false).Int64s()[0]
			tokens = append(tokens, id)
			next = tensors.FromInt64([]int64{id}, 1, 1)
		}
	})
	fmt.Println(tokens, cache.Len())
	// Output:
	// [5 60 12 3 54 22 145 251] 7
}
