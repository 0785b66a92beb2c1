package datasets

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
)

// wordTokenizer is a stand-in for a tokenizer in Map: [CLS] (101), one id per word (from a hash),
// [SEP] (102), at most maxLen ids; it counts its calls.
type wordTokenizer struct {
	maxLen int
	calls  atomic.Int64
}

func (w *wordTokenizer) tokenize(batch *Dataset) (*Dataset, error) {
	w.calls.Add(1)
	texts, err := batch.Strings("text")
	if err != nil {
		return nil, err
	}
	ids := make([][]int64, len(texts))
	masks := make([][]int64, len(texts))
	for i, s := range texts {
		row := []int64{101}
		for _, word := range strings.Fields(s) {
			h := fnv.New32a()
			h.Write([]byte(word))
			row = append(row, 1000+int64(h.Sum32()%20000))
		}
		row = append(row[:min(len(row), w.maxLen-1)], 102)
		ids[i], masks[i] = row, ones(len(row))
	}
	return FromColumns(map[string]any{"input_ids": ids, "attention_mask": masks})
}

func corpus(t *testing.T, n int) *Dataset {
	t.Helper()
	texts, labels := make([]string, n), make([]int64, n)
	for i := range n {
		texts[i] = strings.Repeat(fmt.Sprintf("word%d ", i%17), 1+i%23)
		labels[i] = int64(i % 4)
	}
	ds, err := FromColumns(map[string]any{"text": texts, "label": labels})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func rowsOf(ds *Dataset) []map[string]any {
	out := make([]map[string]any, ds.Len())
	for i := range out {
		out[i] = ds.Row(i)
	}
	return out
}

func TestMapInParallelGivesTheSequentialResult(t *testing.T) {
	ds := corpus(t, 1003)
	tok := &wordTokenizer{maxLen: 16}
	var results [][]map[string]any
	for _, opts := range []MapOptions{
		{Batched: true, BatchSize: 64},
		{Batched: true, BatchSize: 64, NumProc: 4},
		{Batched: true, NumProc: 3},
		{NumProc: 2}, // one row a call
	} {
		out, err := ds.Map(tok.tokenize, opts)
		if err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		if got := out.ColumnNames(); !reflect.DeepEqual(got, []string{"label", "text", "attention_mask", "input_ids"}) {
			t.Errorf("%+v: columns %v", opts, got)
		}
		results = append(results, rowsOf(out))
	}
	for i := 1; i < len(results); i++ {
		if !reflect.DeepEqual(results[0], results[i]) {
			t.Errorf("options %d gave another result than sequential batches", i)
		}
	}
	if ids := results[0][5]["input_ids"].([]int64); len(ids) != 8 || ids[0] != 101 || ids[7] != 102 {
		t.Errorf("row 5 ids %v", ids)
	}
}

func TestMapCachesOnDiskByFingerprintAndKey(t *testing.T) {
	ds := corpus(t, 300)
	dir := t.TempDir()
	tok := &wordTokenizer{maxLen: 16}
	opts := MapOptions{Batched: true, BatchSize: 50, NumProc: 2, CacheKey: "words max16", CacheDir: dir, RemoveColumns: []string{"text"}}
	first, err := ds.Map(tok.tokenize, opts)
	if err != nil {
		t.Fatal(err)
	}
	if tok.calls.Load() != 6 || first.CacheFile() == "" {
		t.Fatalf("first Map: %d calls, cache file %q", tok.calls.Load(), first.CacheFile())
	}
	tok.calls.Store(0)
	second, err := ds.Map(tok.tokenize, opts)
	if err != nil {
		t.Fatal(err)
	}
	if tok.calls.Load() != 0 {
		t.Errorf("second Map called the function %d times; the cache should answer", tok.calls.Load())
	}
	if second.CacheFile() != first.CacheFile() || second.Fingerprint() != first.Fingerprint() || !reflect.DeepEqual(rowsOf(first), rowsOf(second)) {
		t.Errorf("the cached result differs: %v vs %v", second, first)
	}
	if got := second.ColumnNames(); !reflect.DeepEqual(got, []string{"label", "attention_mask", "input_ids"}) {
		t.Errorf("cached columns %v", got)
	}
	// Another key, options, or dataset is another entry.
	for _, c := range []struct {
		name string
		ds   *Dataset
		opts MapOptions
	}{
		{"another key", ds, func() MapOptions { o := opts; o.CacheKey = "words max16 v2"; return o }()},
		{"another batch size", ds, func() MapOptions { o := opts; o.BatchSize = 60; return o }()},
		{"another dataset", ds.Shuffle(1), opts},
	} {
		tok.calls.Store(0)
		if _, err := c.ds.Map(tok.tokenize, c.opts); err != nil || tok.calls.Load() == 0 {
			t.Errorf("%s: %d calls, %v; want a fresh computation", c.name, tok.calls.Load(), err)
		}
	}
	// A damaged cache file is recomputed and rewritten.
	if err := os.WriteFile(first.CacheFile(), []byte("not gob"), 0o644); err != nil {
		t.Fatal(err)
	}
	tok.calls.Store(0)
	third, err := ds.Map(tok.tokenize, opts)
	if err != nil || tok.calls.Load() == 0 || !reflect.DeepEqual(rowsOf(third), rowsOf(first)) {
		t.Errorf("after damaging the cache: %d calls, %v", tok.calls.Load(), err)
	}
	// Without a key nothing is cached, and each result has its own fingerprint.
	a, _ := ds.Map(tok.tokenize, MapOptions{Batched: true, CacheDir: dir})
	b, _ := ds.Map(tok.tokenize, MapOptions{Batched: true, CacheDir: dir})
	if a.CacheFile() != "" || a.Fingerprint() == b.Fingerprint() {
		t.Errorf("without CacheKey: cache file %q, fingerprints %s and %s", a.CacheFile(), a.Fingerprint(), b.Fingerprint())
	}
}

func TestMapErrors(t *testing.T) {
	ds := corpus(t, 100)
	cases := []struct {
		name string
		fn   func(*Dataset) (*Dataset, error)
		opts MapOptions
		want []string
	}{
		{"error", func(b *Dataset) (*Dataset, error) {
			if b.Row(0)["text"] == ds.Row(40)["text"] && b.Len() == 1 {
				return nil, errors.New("bad row")
			}
			return FromColumns(map[string]any{"n": make([]int, b.Len())})
		}, MapOptions{NumProc: 3}, []string{"rows 40 to 40", "bad row"}},
		{"panic", func(b *Dataset) (*Dataset, error) { panic("boom") }, MapOptions{Batched: true, BatchSize: 30, NumProc: 2}, []string{"rows 0 to 29", "panicked: boom"}},
		{"wrong row count", func(b *Dataset) (*Dataset, error) {
			return FromColumns(map[string]any{"n": []int{1}})
		}, MapOptions{Batched: true, BatchSize: 10}, []string{"rows 0 to 9", "returned 1 rows for 10"}},
		{"columns change", func(b *Dataset) (*Dataset, error) {
			name := "a"
			if b.Row(0)["label"] == int64(1) {
				name = "b"
			}
			return FromColumns(map[string]any{name: make([]int, b.Len())})
		}, MapOptions{}, []string{"rows 1 to 1", "columns [b]", "[a]"}},
		{"nil result", func(b *Dataset) (*Dataset, error) { return nil, nil }, MapOptions{}, []string{"nil dataset"}},
		{"unknown column to remove", func(b *Dataset) (*Dataset, error) { return b, nil }, MapOptions{RemoveColumns: []string{"x"}}, []string{`no column "x"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ds.Map(c.fn, c.opts)
			checkError(t, err, c.want)
		})
	}
}
