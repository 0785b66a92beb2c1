package datasets_test

import (
	"fmt"
	"strings"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/datasets"
)

func ExampleReadJSONL() {
	labels, _ := datasets.NewClassLabel("neg", "pos")
	ds, err := datasets.ReadJSONL("testdata/reviews.jsonl", datasets.Options{Labels: labels})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds)
	fmt.Println(ds.Row(1))
	// Output:
	// Dataset({features: [text: string, label: ClassLabel[neg pos], stars: int64], num_rows: 4})
	// map[label:0 stars:1 text:Dull and far too long.]
}

func ExampleReadFolder() {
	ds, err := datasets.ReadFolder("testdata/news", datasets.Options{}) // news/<label>/*.txt
	if err != nil {
		fmt.Println(err)
		return
	}
	train, test, _ := ds.SplitEvery(2, "label") // the 1st, 3rd… text of each label held out
	paths, _ := test.Strings("path")
	fmt.Println(ds.Len(), ds.Labels("label"), train.Len(), paths)
	// Output:
	// 5 ClassLabel{business, sport} 2 [business/001.txt sport/001.txt sport/003.txt]
}

// vocabulary is a toy tokenizer for the examples: [CLS]=1, [SEP]=2, and each new word the next id.
type vocabulary map[string]int64

func (v vocabulary) encode(text string) []int64 {
	ids := []int64{1}
	for _, w := range strings.Fields(strings.ToLower(text)) {
		if _, ok := v[w]; !ok {
			v[w] = int64(len(v) + 3)
		}
		ids = append(ids, v[w])
	}
	return append(ids, 2)
}

func ExampleDataset_Map() {
	ds, _ := datasets.FromColumns(map[string]any{
		"text":  []string{"a fine film", "dull", "a fine cast and a thin plot"},
		"label": []int{1, 0, 0},
	})
	vocab := vocabulary{}
	tokenized, err := ds.Map(func(b *datasets.Dataset) (*datasets.Dataset, error) {
		texts, err := b.Strings("text")
		if err != nil {
			return nil, err
		}
		ids := make([][]int64, len(texts))
		for i, t := range texts {
			ids[i] = vocab.encode(t)
		}
		return datasets.FromColumns(map[string]any{"input_ids": ids})
	}, datasets.MapOptions{Batched: true, RemoveColumns: []string{"text"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tokenized)
	fmt.Println(tokenized.Row(0)["input_ids"], tokenized.Row(2)["input_ids"])
	// Output:
	// Dataset({features: [label: int64, input_ids: list of int64], num_rows: 3})
	// [1 3 4 5 2] [1 3 4 7 8 3 9 10 2]
}

func ExampleWithCollator() {
	ds, _ := datasets.FromColumns(map[string]any{
		"input_ids": [][]int64{{1, 3, 4, 2}, {1, 5, 2}, {1, 3, 4, 6, 7, 8, 9, 10, 11, 2}},
		"label":     []int{1, 0, 0},
	})
	collated, err := datasets.WithCollator(ds, datasets.DataCollatorWithPadding{PadTokenID: 0, PadToMultipleOf: 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	loader := data.NewLoader(collated, data.LoaderConfig{BatchSize: 2})
	for loader.Next() {
		b := loader.Named()
		fmt.Println(b)
		fmt.Println(b.Get("input_ids").Int64s(), b.Get("attention_mask").Int64s(), b.Get("labels").Int64s())
	}
	// Output:
	// Batch{input_ids [2 8] int64, attention_mask [2 8] int64, labels [2] int64}
	// [1 3 4 2 0 0 0 0 1 5 2 0 0 0 0 0] [1 1 1 1 0 0 0 0 1 1 1 0 0 0 0 0] [1 0]
	// Batch{input_ids [1 16] int64, attention_mask [1 16] int64, labels [1] int64}
	// [1 3 4 6 7 8 9 10 11 2 0 0 0 0 0 0] [1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0] [0]
}
