package tokenizers

import (
	"path/filepath"
	"testing"
)

// benchKinds are the tokenizer families bench/tokenizers.sh compares with
// the Python tokenizers library.
var benchKinds = []string{"minilm", "gpt2", "llama3", "llama2", "t5"}

func benchSetup(b *testing.B, kind string) (*Tokenizer, []string, int) {
	tok, err := FromFile(filepath.Join("testdata", kind, "tokenizer.json"))
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	n := 0
	for _, s := range readSentences(b) {
		texts = append(texts, s)
		n += len(s)
	}
	return tok, texts, n
}

// BenchmarkEncode encodes the 2,485 test sentences one by one; one op is the
// whole corpus.
func BenchmarkEncode(b *testing.B) {
	for _, kind := range benchKinds {
		b.Run(kind, func(b *testing.B) {
			tok, texts, n := benchSetup(b, kind)
			b.SetBytes(int64(n))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, s := range texts {
					if _, err := tok.Encode(s); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "sentences/s")
		})
	}
}

// BenchmarkEncodeBatch encodes the corpus with EncodeBatch (a goroutine per CPU).
func BenchmarkEncodeBatch(b *testing.B) {
	for _, kind := range benchKinds {
		b.Run(kind, func(b *testing.B) {
			tok, texts, n := benchSetup(b, kind)
			b.SetBytes(int64(n))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tok.EncodeBatch(texts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(texts))*float64(b.N)/b.Elapsed().Seconds(), "sentences/s")
		})
	}
}
