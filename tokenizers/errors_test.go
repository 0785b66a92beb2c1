package tokenizers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadTokenizerFilesAreClearErrors loads broken tokenizer.json files:
// each must be an error that names the file and what is wrong, never a
// panic or a tokenizer that encodes differently.
func TestBadTokenizerFilesAreClearErrors(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "gpt2", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	replace := func(old, new string) string {
		if !strings.Contains(string(good), old) {
			t.Fatalf("fixture lacks %q", old)
		}
		return strings.Replace(string(good), old, new, 1)
	}
	cases := []struct {
		name, content string
		want          []string
	}{
		{"truncated", string(good[:len(good)/2]), []string{"tokenizer.json", "not a valid tokenizer.json"}},
		{"empty", "", []string{"not a valid tokenizer.json"}},
		{"unsupported model", replace(`"type": "BPE"`, `"type": "SentencePieceBPE"`), []string{`model type "SentencePieceBPE"`}},
		{"unsupported pre-tokenizer", replace(`"type": "ByteLevel",`, `"type": "UnicodeScripts",`), []string{`pre_tokenizer type "UnicodeScripts"`}},
		{"unsupported normalizer", replace(`"normalizer": null`, `"normalizer": {"type": "Uppercase"}`), []string{`normalizer type "Uppercase"`}},
		{"bad regex", replace(`"normalizer": null`, `"normalizer": {"type": "Replace", "pattern": {"Regex": "(unclosed"}, "content": "x"}`), []string{"normalizer Replace", "(unclosed"}},
		{"merge out of vocabulary", replace(`"merges": [`, `"merges": [["notatoken", "Ġ"], `), []string{"merge 0", "notatoken"}},
		{"dropout", replace(`"dropout": null`, `"dropout": 0.1`), []string{"dropout"}},
		{"unknown version", replace(`"version": "1.0"`, `"version": "2.0"`), []string{"version"}},
		{"no model", `{"version": "1.0"}`, []string{"model"}},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".json")
			if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := FromFile(path)
			if err == nil {
				t.Fatal("loaded without an error")
			}
			for _, w := range append(c.want, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestMissingFilesAreClearErrors(t *testing.T) {
	if _, err := FromFile(filepath.Join(t.TempDir(), "nope.json")); err == nil || !strings.Contains(err.Error(), "nope.json") {
		t.Errorf("FromFile of a missing file: %v", err)
	}
	dir := t.TempDir()
	if _, err := FromPretrained(dir); err == nil || !strings.Contains(err.Error(), "no tokenizer.json") {
		t.Errorf("FromPretrained of an empty folder: %v", err)
	}
	good, _ := os.ReadFile(filepath.Join("testdata", "gpt2", "tokenizer.json"))
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), good, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FromPretrained(dir); err == nil || !strings.Contains(err.Error(), "tokenizer_config.json") {
		t.Errorf("FromPretrained with a broken tokenizer_config.json: %v", err)
	}
}

func TestInvalidUTF8IsAnError(t *testing.T) {
	tok, err := FromFile(filepath.Join("testdata", "gpt2", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tok.Encode("ab\xffcd"); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("Encode of invalid UTF-8: %v", err)
	}
}

func TestPaddingWithoutPadTokenIsAnError(t *testing.T) {
	tok, err := FromFile(filepath.Join("testdata", "gpt2", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tok.Batch([]string{"a", "bb"}, Options{Padding: PadLongest}); err == nil || !strings.Contains(err.Error(), "padding token") {
		t.Errorf("Batch with padding and no pad token: %v", err)
	}
	b, err := tok.Batch([]string{"a", "b c d"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.InputIDsTensor(); err == nil || !strings.Contains(err.Error(), "pad the batch") {
		t.Errorf("InputIDsTensor of a ragged batch: %v", err)
	}
}
