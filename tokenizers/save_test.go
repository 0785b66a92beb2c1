package tokenizers

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSavePretrainedRoundTrips: a tokenizer saved by SavePretrained loads back with its settings
// (changed ones included) and encodes as before, for every kind of tokenizer of the fixtures;
// the keys FromPretrained does not read are kept.
func TestSavePretrainedRoundTrips(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "sentences.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sentences []struct{ Text string }
	if err := json.Unmarshal(b, &sentences); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range sentences[:40] {
		texts = append(texts, s.Text)
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			tok, err := FromPretrained(filepath.Join("testdata", kind))
			if err != nil {
				t.Fatal(err)
			}
			tok.PaddingSide, tok.TruncationSide, tok.ModelMaxLength = "left", "left", 64
			if tok.PadToken == "" {
				tok.PadToken = tok.p.AddedTokens()[0].Content
			}
			opts := Options{Padding: PadLongest, Truncation: LongestFirst}
			want, err := tok.Batch(texts, opts)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "saved")
			if err := tok.SavePretrained(dir); err != nil {
				t.Fatal(err)
			}
			back, err := FromPretrained(dir)
			if err != nil {
				t.Fatal(err)
			}
			if back.PaddingSide != "left" || back.TruncationSide != "left" || back.ModelMaxLength != 64 || back.PadToken != tok.PadToken ||
				back.PadTokenTypeID != tok.PadTokenTypeID || back.CleanUpTokenizationSpaces != tok.CleanUpTokenizationSpaces {
				t.Errorf("loaded back as %+v, saved %+v", back, tok)
			}
			got, err := back.Batch(texts, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Error("the loaded tokenizer encodes otherwise than the saved one")
			}
			orig, _ := os.ReadFile(filepath.Join("testdata", kind, "tokenizer_config.json"))
			saved, _ := os.ReadFile(filepath.Join(dir, "tokenizer_config.json"))
			if i := strings.Index(string(orig), `"tokenizer_class"`); i >= 0 && !strings.Contains(string(saved), `"tokenizer_class"`) {
				t.Error("tokenizer_class was not kept")
			}
		})
	}
	if err := (&Tokenizer{}).SavePretrained(t.TempDir()); err == nil || !strings.Contains(err.Error(), "not read from a tokenizer.json") {
		t.Errorf("saving a tokenizer that was never loaded: %v", err)
	}
}
