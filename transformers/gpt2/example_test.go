package gpt2_test

import (
	"fmt"
	"log"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/gpt2"
)

// A GPT-2 from a configuration alone, with fresh weights: its language modelling head is the
// token embedding (one parameter under two names), and it generates at once.
func ExampleNewLMHeadModel() {
	tensors.ManualSeed(0)
	cfg := gpt2.NewConfig()
	cfg.VocabSize, cfg.NPositions, cfg.NEmbd, cfg.NLayer, cfg.NHead = 100, 32, 32, 2, 4
	m, err := gpt2.NewLMHeadModel(cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.LMHead.Weight == m.Transformer.Wte.Weight, m.Transformer.H[0].Attn.CAttn.Weight.Shape())
	out, err := m.Generate(transformers.Inputs{InputIDs: tensors.FromInt64([]int64{1, 5, 9}, 1, 3)}, transformers.GenerateOptions{MaxNewTokens: 4, IgnoreEOS: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Sequences.Shape())
	// Output:
	// true [32 96]
	// [1 7]
}
