package transformers_test

import (
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
)

// A pretrained snapshot folder as a sequence classifier: testdata/tiny-bert is a small BERT
// that transformers saved; any folder snapshot_download returns (all-MiniLM-L6-v2, bert-base-…)
// loads the same way.
func ExampleFromPretrained() {
	model, report, err := transformers.FromPretrained("testdata/tiny-bert", transformers.Options{
		Task: transformers.SequenceClassification, Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(model.Architecture(), report.Empty())
	// Two sentences as token ids, the second one token shorter: padding is masked out.
	ids := tensors.FromInt64([]int64{2, 45, 17, 3, 2, 60, 3, 0}, 2, 4)
	mask := tensors.FromInt64([]int64{1, 1, 1, 1, 1, 1, 1, 0}, 2, 4)
	out, err := model.Run(transformers.Inputs{InputIDs: ids, AttentionMask: mask, Labels: tensors.FromInt64([]int64{2, 0}, 2)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Logits.Shape(), out.Loss.Item() > 0)
	// Output:
	// BertForSequenceClassification true
	// [2 3] true
}

// The shortest fine-tuning run: load, train with AdamW (no decay for biases and LayerNorm
// weights) and a linear warmup, save in transformers' format, load again.
func Example_fineTune() {
	tensors.ManualSeed(0)
	model, _, err := transformers.FromPretrained("testdata/tiny-bert", transformers.Options{
		Task: transformers.SequenceClassification, NumLabels: 3, Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	batch := transformers.Inputs{
		InputIDs:      tensors.FromInt64([]int64{2, 45, 17, 3, 2, 60, 3, 0}, 2, 4),
		AttentionMask: tensors.FromInt64([]int64{1, 1, 1, 1, 1, 1, 1, 0}, 2, 4),
		Labels:        tensors.FromInt64([]int64{2, 0}, 2),
	}
	opt := optim.NewAdamWGroups(optim.DecayGroups(model.Parameters(), 0.01), optim.AdamConfig{LR: 1e-3})
	sched := optim.NewLinearScheduleWithWarmup(opt, 2, 20)
	nn.SetTraining(model, true) // FromPretrained returns the model in evaluation mode
	var first, last float64
	for step := range 20 {
		out, err := model.Run(batch)
		if err != nil {
			log.Fatal(err)
		}
		out.Loss.Backward()
		opt.Step()
		sched.Step()
		opt.ZeroGrad()
		if step == 0 {
			first = out.Loss.Item()
		}
		last = out.Loss.Item()
	}
	dir, _ := os.MkdirTemp("", "finetuned")
	defer os.RemoveAll(dir)
	if err := transformers.SavePretrained(dir, model, transformers.SaveOptions{}); err != nil {
		log.Fatal(err)
	}
	again, report, err := transformers.FromPretrained(dir, transformers.Options{Task: transformers.SequenceClassification})
	if err != nil {
		log.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	fmt.Println(last < first, report.Empty(), len(names), again.Architecture())
	// Output: true true 2 BertForSequenceClassification
}

// Sharded saving: weights above MaxShardSize are split as transformers splits them.
func ExampleSavePretrained() {
	model, _, err := transformers.FromPretrained("testdata/tiny-bert", transformers.Options{Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	dir, _ := os.MkdirTemp("", "sharded")
	defer os.RemoveAll(dir)
	if err := transformers.SavePretrained(dir, model, transformers.SaveOptions{MaxShardSize: "40KB"}); err != nil {
		log.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// config.json
	// model-00001-of-00003.safetensors
	// model-00002-of-00003.safetensors
	// model-00003-of-00003.safetensors
	// model.safetensors.index.json
}

// LoadConfig reads config.json into its family's configuration.
func ExampleLoadConfig() {
	cfg, err := transformers.LoadConfig("testdata/tiny-roberta")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%T %s %d labels\n", cfg, cfg.Base().ModelType, cfg.Base().NumLabels())
	_, err = transformers.LoadConfig("testdata")
	fmt.Println(err != nil)
	// Output:
	// *roberta.Config roberta 3 labels
	// true
}

// model(**batch): the named batch a padding collator makes (here written out) goes to Run as it
// is.
func ExampleBatchInputs() {
	model, _, err := transformers.FromPretrained("testdata/tiny-bert", transformers.Options{
		Task: transformers.SequenceClassification, Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	batch := data.NewBatch().
		Set("input_ids", tensors.FromInt64([]int64{2, 45, 17, 3, 2, 60, 3, 0}, 2, 4)).
		Set("attention_mask", tensors.FromInt64([]int64{1, 1, 1, 1, 1, 1, 1, 0}, 2, 4)).
		Set("labels", tensors.FromInt64([]int64{2, 0}, 2))
	out, err := model.Run(transformers.BatchInputs(batch))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.Logits.Shape(), out.Loss != nil)
	_, err = model.Run(transformers.BatchInputs(batch.Set("special_tokens_mask", tensors.Zeros(2, 4))))
	fmt.Println(err)
	// Output:
	// [2 3] true
	// BertModel: the batch holds ["special_tokens_mask"], which the model does not take (its inputs are input_ids, attention_mask, token_type_ids, position_ids and labels): remove those columns from the dataset before collating (datasets' RemoveColumns, or Map's RemoveColumns)
}
