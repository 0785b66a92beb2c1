package tokenizers

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var kinds = []string{"minilm", "bert_cased", "gpt2", "roberta", "llama3", "llama2", "mistral", "t5",
	"misc_wordpiece", "misc_bpe", "misc_unigram", "misc_wordlevel", "misc_bytelevel_norm"}

type batchCase struct {
	Case struct {
		Pairs           bool   `json:"pairs"`
		Padding         string `json:"padding"`
		Truncation      string `json:"truncation"`
		MaxLength       int    `json:"max_length"`
		PadToMultipleOf int    `json:"pad_to_multiple_of"`
		PaddingSide     string `json:"padding_side"`
		AddSpecial      *bool  `json:"add_special_tokens"`
	} `json:"case"`
	A             []int     `json:"a"`
	B             []int     `json:"b"`
	InputIDs      [][]int64 `json:"input_ids"`
	AttentionMask [][]int64 `json:"attention_mask"`
	TokenTypeIDs  [][]int64 `json:"token_type_ids"`
	Error         string    `json:"error"`
}

type transformersRef struct {
	Single []struct {
		IDs     []int `json:"ids"`
		Offsets []int `json:"offsets"`
	} `json:"single"`
	Batches []batchCase `json:"batches"`
	Decode  []struct {
		IDs   []int  `json:"ids"`
		Skip  string `json:"skip"`
		Keep  string `json:"keep"`
		Error string `json:"error"`
	} `json:"decode"`
	Config struct {
		ModelMaxLength   float64 `json:"model_max_length"`
		PaddingSide      string  `json:"padding_side"`
		PadTokenID       *int    `json:"pad_token_id"`
		VocabSize        int     `json:"vocab_size"`
		VocabSizeNoAdded int     `json:"vocab_size_no_added"`
	} `json:"config"`
}

func readRef(t *testing.T, kind string) *transformersRef {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", kind, "expected.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var r transformersRef
	if err := json.NewDecoder(zr).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return &r
}

func readSentences(t testing.TB) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "sentences.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s []struct{ Text string }
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = x.Text
	}
	return out
}

func options(t *testing.T, c batchCase) Options {
	o := Options{MaxLength: c.Case.MaxLength, PadToMultipleOf: c.Case.PadToMultipleOf, PaddingSide: c.Case.PaddingSide}
	switch c.Case.Padding {
	case "":
	case "longest":
		o.Padding = PadLongest
	case "max_length":
		o.Padding = PadMaxLength
	default:
		t.Fatalf("padding %q", c.Case.Padding)
	}
	switch c.Case.Truncation {
	case "":
	case "longest_first":
		o.Truncation = LongestFirst
	case "only_first":
		o.Truncation = OnlyFirst
	case "only_second":
		o.Truncation = OnlySecond
	default:
		t.Fatalf("truncation %q", c.Case.Truncation)
	}
	o.NoSpecialTokens = c.Case.AddSpecial != nil && !*c.Case.AddSpecial
	return o
}

// TestBatchMatchesTransformers compares Batch and BatchPairs with what
// transformers' AutoTokenizer returned for the same snapshot folder.
func TestBatchMatchesTransformers(t *testing.T) {
	sents := readSentences(t)
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			tok, err := FromPretrained(filepath.Join("testdata", kind))
			if err != nil {
				t.Fatal(err)
			}
			ref := readRef(t, kind)
			if got, want := tok.VocabSize(), ref.Config.VocabSize; got != want {
				t.Errorf("VocabSize() = %d, want %d", got, want)
			}
			if want := ref.Config.ModelMaxLength; want < 1e20 && float64(tok.ModelMaxLength) != want {
				t.Errorf("ModelMaxLength = %d, want %v", tok.ModelMaxLength, want)
			}
			if tok.PaddingSide != ref.Config.PaddingSide {
				t.Errorf("PaddingSide = %q, want %q", tok.PaddingSide, ref.Config.PaddingSide)
			}
			for i, c := range ref.Batches {
				texts := make([]string, len(c.A))
				for k, a := range c.A {
					texts[k] = sents[a]
				}
				var got *BatchEncoding
				var err error
				if c.Case.Pairs {
					seconds := make([]string, len(c.B))
					for k, b := range c.B {
						seconds[k] = sents[b]
					}
					got, err = tok.BatchPairs(texts, seconds, options(t, c))
				} else {
					got, err = tok.Batch(texts, options(t, c))
				}
				if c.Error != "" {
					if err == nil {
						t.Errorf("batch %d %+v: transformers fails (%s), goaccel does not", i, c.Case, c.Error)
					}
					continue
				}
				if err != nil {
					t.Errorf("batch %d %+v: %v", i, c.Case, err)
					continue
				}
				if !reflect.DeepEqual(got.InputIDs, c.InputIDs) {
					t.Errorf("batch %d %+v: input_ids\n got %v\nwant %v", i, c.Case, got.InputIDs, c.InputIDs)
				}
				if !reflect.DeepEqual(got.AttentionMask, c.AttentionMask) {
					t.Errorf("batch %d %+v: attention_mask\n got %v\nwant %v", i, c.Case, got.AttentionMask, c.AttentionMask)
				}
				if !reflect.DeepEqual(got.TokenTypeIDs, c.TokenTypeIDs) {
					t.Errorf("batch %d %+v: token_type_ids\n got %v\nwant %v", i, c.Case, got.TokenTypeIDs, c.TokenTypeIDs)
				}
			}
		})
	}
}

// TestDecodeMatchesTransformers compares Decode of a FromPretrained tokenizer
// with transformers' decode (its clean-up of spaces included).
func TestDecodeMatchesTransformers(t *testing.T) {
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			tok, err := FromPretrained(filepath.Join("testdata", kind))
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range readRef(t, kind).Decode {
				for _, d := range []struct {
					skip bool
					want string
				}{{true, c.Skip}, {false, c.Keep}} {
					got, err := tok.Decode(c.IDs, d.skip)
					if c.Error != "" {
						if err == nil {
							t.Errorf("decode %d: transformers fails (%s), goaccel gives %q", i, c.Error, got)
						}
						break
					}
					if err != nil || got != d.want {
						t.Errorf("decode %d (skip special %v) = %q, %v; want %q", i, d.skip, got, err, d.want)
					}
				}
			}
		})
	}
}

// TestEncodeOffsetsAreCharacters checks the public Encoding against
// tokenizers' on the MiniLM tokenizer: offsets count characters, not bytes.
func TestEncodeOffsetsAreCharacters(t *testing.T) {
	tok, err := FromFile(filepath.Join("testdata", "minilm", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	sents := readSentences(t)
	ref := readRef(t, "minilm")
	for i, want := range ref.Single {
		e, err := tok.Encode(sents[i])
		if err != nil {
			t.Fatal(err)
		}
		var offs []int
		for _, o := range e.Offsets {
			offs = append(offs, o.Start, o.End)
		}
		if !reflect.DeepEqual(e.IDs, want.IDs) || !reflect.DeepEqual(offs, want.Offsets) {
			t.Fatalf("sentence %d %q: ids %v offsets %v, want %v %v", i, sents[i], e.IDs, offs, want.IDs, want.Offsets)
		}
	}
}
