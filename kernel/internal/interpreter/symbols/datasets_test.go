package symbols_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/goaccel/goaccel/kernel/internal/interpreter/symbols"
)

// The notebook path of text data: a JSONL file read in a cell, an interpreted tokenizing function
// given to Map on several goroutines, an interpreted Filter, and the padded batches of a Loader.
// A panic in the interpreted Map function comes back as Map's error.
const cellText = `
package main

import (
	"fmt"
	"strings"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/datasets"
)

func tokenize(b *datasets.Dataset) (*datasets.Dataset, error) {
	texts, err := b.Strings("text")
	if err != nil {
		return nil, err
	}
	ids := make([][]int64, len(texts))
	for i, t := range texts {
		ids[i] = []int64{101}
		for _, w := range strings.Fields(t) {
			ids[i] = append(ids[i], int64(len(w)))
		}
		ids[i] = append(ids[i], 102)
	}
	return datasets.FromColumns(map[string]any{"input_ids": ids})
}

func Run(path string) string {
	labels, _ := datasets.NewClassLabel("neg", "pos")
	ds, err := datasets.ReadJSONL(path, datasets.Options{Labels: labels})
	if err != nil {
		return err.Error()
	}
	ds, err = ds.Filter(func(r map[string]any) bool { return r["label"].(int64) == 1 || len(r["text"].(string)) > 3 })
	if err != nil {
		return err.Error()
	}
	tok, err := ds.Map(tokenize, datasets.MapOptions{Batched: true, BatchSize: 2, NumProc: 3, RemoveColumns: []string{"text"}})
	if err != nil {
		return err.Error()
	}
	coll, err := datasets.WithCollator(tok, datasets.DataCollatorWithPadding{PadToMultipleOf: 4})
	if err != nil {
		return err.Error()
	}
	loader := data.NewLoader(coll, data.LoaderConfig{BatchSize: 4})
	out := fmt.Sprint(tok.Len(), " ")
	for loader.Next() {
		b := loader.Named()
		out += fmt.Sprint(b.Get("input_ids").Shape(), b.Get("labels").Int64s(), " ")
	}
	return out
}

func Panicking(path string) string {
	ds, err := datasets.ReadJSONL(path, datasets.Options{})
	if err != nil {
		return err.Error()
	}
	_, err = ds.Map(func(b *datasets.Dataset) (*datasets.Dataset, error) {
		var m map[string]int
		m["x"] = 1
		return b, nil
	}, datasets.MapOptions{NumProc: 2})
	return fmt.Sprint(err)
}
`

func TestCellTextDataUnderYaegi(t *testing.T) {
	var lines []string
	for i := range 9 {
		label := []string{"neg", "pos"}[i%2]
		lines = append(lines, `{"text": "`+strings.Repeat("word ", i+1)+`", "label": "`+label+`"}`)
	}
	path := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(symbols.Symbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(cellText); err != nil {
		t.Fatalf("eval: %v", err)
	}
	v, err := i.Eval("main.Run")
	if err != nil {
		t.Fatal(err)
	}
	got := v.Interface().(func(string) string)(path)
	// Every row passes the filter (each text is longer than 3); lengths 3..11, padded to 4s.
	if want := "9 [4 8] [0 1 0 1] [4 12] [0 1 0 1] [1 12] [0] "; got != want {
		t.Errorf("Run = %q, want %q", got, want)
	}
	v, err = i.Eval("main.Panicking")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Interface().(func(string) string)(path); !strings.Contains(got, "panicked") || !strings.Contains(got, "nil map") {
		t.Errorf("Panicking = %q", got)
	}
}
