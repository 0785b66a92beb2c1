package datasets

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/tokenizers"
)

// tokenizeWith is the Map function of a fine-tuning notebook: the texts through tok, unpadded.
func tokenizeWith(tok *tokenizers.Tokenizer, opts tokenizers.Options) func(*Dataset) (*Dataset, error) {
	return func(b *Dataset) (*Dataset, error) {
		texts, err := b.Strings("text")
		if err != nil {
			return nil, err
		}
		enc, err := tok.Batch(texts, opts)
		if err != nil {
			return nil, err
		}
		return FromColumns(map[string]any{"input_ids": enc.InputIDs, "token_type_ids": enc.TokenTypeIDs, "attention_mask": enc.AttentionMask})
	}
}

// TestTextToBatchMatchesTransformers goes from the fixture's texts to padded batches with
// goaccel alone (MiniLM's tokenizer.json through tokenizers, Map on two goroutines,
// NewDataCollatorWithPadding from the tokenizer) and compares with what transformers' tokenizer
// and DataCollatorWithPadding made of the same texts.
func TestTextToBatchMatchesTransformers(t *testing.T) {
	dir := miniLM(t)
	b, err := os.ReadFile("testdata/collator.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Texts []string       `json:"texts"`
		Cases []collatorCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	for _, c := range fx.Cases {
		if c.Rows[0]["token_type_ids"] == nil || c.Rows[0]["special_tokens_mask"] != nil || c.Rows[0]["label"] == nil {
			continue // the cases that tokenize every text as tokenizer(texts) does
		}
		t.Run(c.Name, func(t *testing.T) {
			tok, err := tokenizers.FromPretrained(dir)
			if err != nil {
				t.Fatal(err)
			}
			tok.PaddingSide = c.PaddingSide
			if c.PadTokenID != 0 {
				tok.PadToken = "[UNK]" // the case's tokenizer pads with [UNK] (100)
			}
			labels := make([]int64, len(c.Rows))
			for i, r := range c.Rows {
				labels[i] = int64(r["label"].(float64))
			}
			ds, err := FromColumns(map[string]any{"text": fx.Texts, "label": labels})
			if err != nil {
				t.Fatal(err)
			}
			tokenized, err := ds.Map(tokenizeWith(tok, tokenizers.Options{}), MapOptions{Batched: true, BatchSize: 2, NumProc: 2, RemoveColumns: []string{"text"}})
			if err != nil {
				t.Fatal(err)
			}
			collator, err := NewDataCollatorWithPadding(tok, c.PadToMultipleOf)
			if err != nil {
				t.Fatal(err)
			}
			batch, err := collator.Collate(tokenized)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"input_ids", "token_type_ids", "attention_mask", "labels"} {
				got, want := batch.Get(name), c.Batch[name]
				if got == nil || got.DType() != tensors.Int64 || !reflect.DeepEqual(got.Shape(), want.Shape) || !reflect.DeepEqual(got.Float64s(), want.Values) {
					t.Errorf("%s: goaccel %v, transformers %v %v", name, got, want.Shape, want.Values)
				}
			}
		})
	}
	tok, _ := tokenizers.FromPretrained(dir)
	tok.PadToken = ""
	_, err = NewDataCollatorWithPadding(tok, 8)
	checkError(t, err, []string{"no padding token"})
}

// TestBBCNewsTokenizedInParallelAndCached tokenizes BBC News' held-out articles (every 5th per
// topic, duplicates dropped) with MiniLM's tokenizer, truncated to 128 tokens: on two goroutines
// as on one, and a second Map with the same CacheKey reads the cache.
func TestBBCNewsTokenizedInParallelAndCached(t *testing.T) {
	root, dir := bbcNews(t), miniLM(t)
	if testing.Short() {
		t.Skip("tokenizes 427 articles")
	}
	tok, err := tokenizers.FromPretrained(dir)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := ReadFolder(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ds, _ = ds.DropDuplicates(DedupeOptions{CollapseSpace: true})
	_, test, _ := ds.SplitEvery(5, "label")
	opts := tokenizers.Options{Truncation: tokenizers.LongestFirst, MaxLength: 128}
	calls := 0
	counted := func(b *Dataset) (*Dataset, error) { calls++; return tokenizeWith(tok, opts)(b) }
	cache := t.TempDir()
	seq, err := test.Map(counted, MapOptions{Batched: true, BatchSize: 100, RemoveColumns: []string{"text", "path"}, CacheKey: "minilm max128", CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	par, err := test.Map(tokenizeWith(tok, opts), MapOptions{Batched: true, BatchSize: 100, NumProc: 2, RemoveColumns: []string{"text", "path"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rowsOf(seq), rowsOf(par)) {
		t.Error("two goroutines tokenized otherwise than one")
	}
	calls = 0
	again, err := test.Map(counted, MapOptions{Batched: true, BatchSize: 100, RemoveColumns: []string{"text", "path"}, CacheKey: "minilm max128", CacheDir: cache})
	if err != nil || calls != 0 || again.CacheFile() == "" || !reflect.DeepEqual(rowsOf(again), rowsOf(seq)) {
		t.Errorf("second Map: %d calls, cache %q, %v", calls, again.CacheFile(), err)
	}
	collated, err := WithCollator(seq, DataCollatorWithPadding{PadToMultipleOf: 8})
	if err != nil {
		t.Fatal(err)
	}
	longest := 0
	for _, n := range collated.SampleLengths() {
		longest = max(longest, n)
	}
	if seq.Len() != 427 || longest != 128 {
		t.Errorf("%d articles, the longest %d tokens; want 427 and 128", seq.Len(), longest)
	}
}
