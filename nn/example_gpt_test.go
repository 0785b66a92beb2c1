package nn_test

import (
	"fmt"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

// A tiny GPT learns to continue "abcabc…": a few AdamW steps on next-token targets (nanoGPT's
// decay groups), then Generate samples a continuation of a prompt.
func ExampleGPT() {
	tensors.ManualSeed(0)
	gpt := nn.NewGPT(nn.GPTConfig{VocabSize: 3, BlockSize: 8, Layers: 1, Heads: 2, Embed: 16, Bias: true})
	opt := optim.NewAdamWGroups(optim.DecayGroups(gpt.Parameters(), 0.1), optim.AdamConfig{LR: 1e-2})
	seq := []int64{0, 1, 2, 0, 1, 2, 0, 1, 2}
	x, y := tensors.FromInt64(seq[:8], 1, 8), tensors.FromInt64(seq[1:], 8)
	for range 100 {
		loss := nn.CrossEntropy(gpt.Forward(x).Reshape(8, 3), y)
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
	}
	fmt.Println("parameters:", nn.NumParameters(gpt)) // the output layer shares the embedding's weight
	out := gpt.Generate(tensors.FromInt64([]int64{0, 1}, 1, 2), 6, nn.GenerateOptions{TopK: 1})
	fmt.Println(out.Int64s())
	// Output:
	// parameters: 3488
	// [0 1 2 0 1 2 0 1]
}
