package bert_test

import (
	"fmt"
	"log"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/bert"
)

// A BERT classifier from a configuration alone, with fresh weights (to pretrain, or to load
// weights into with transformers.LoadWeights).
func ExampleNewForSequenceClassification() {
	cfg := bert.NewConfig()
	cfg.VocabSize, cfg.HiddenSize, cfg.NumHiddenLayers, cfg.NumAttentionHeads, cfg.IntermediateSize = 100, 32, 2, 4, 64
	cfg.SetNumLabels(4)
	m, err := bert.NewForSequenceClassification(cfg)
	if err != nil {
		log.Fatal(err)
	}
	out, err := m.Run(transformers.Inputs{InputIDs: tensors.FromInt64([]int64{1, 5, 9, 2}, 1, 4)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.NamedParameters()[0].Name, out.Logits.Shape(), out.PoolerOutput.Shape())
	// Output: bert.embeddings.word_embeddings.weight [1 4] [1 32]
}
