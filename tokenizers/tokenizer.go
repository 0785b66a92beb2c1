package tokenizers

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/goaccel/goaccel/tokenizers/internal/encoding"
	"github.com/goaccel/goaccel/tokenizers/internal/pipeline"
)

// Tokenizer encodes text into token ids and decodes ids back, as the
// tokenizer.json it was loaded from does in Hugging Face tokenizers. It is
// safe for concurrent use.
type Tokenizer struct {
	p    *pipeline.Tokenizer
	name string // the file, for messages
	raw  []byte // tokenizer.json as read, which SavePretrained writes back
	// the keys of tokenizer_config.json and special_tokens_map.json as FromPretrained read
	// them, which SavePretrained writes back under the settings above
	configKeys, specialKeys map[string]json.RawMessage

	// ModelMaxLength is the longest input the model takes (tokenizer_config.json's
	// model_max_length); 0 when unknown, as with FromFile. Batch truncates and
	// pads to it when MaxLength is not given.
	ModelMaxLength int
	// PaddingSide and TruncationSide are "right" (default) or "left".
	PaddingSide, TruncationSide string
	// PadToken is the token Batch pads with ("" when the tokenizer has none);
	// PadTokenTypeID the type id of padding.
	PadToken       string
	PadTokenTypeID int
	// CleanUpTokenizationSpaces makes Decode remove the spaces WordPiece and
	// Unigram tokenizers leave before punctuation (" ." → "."), as
	// transformers does when tokenizer_config.json asks for it; transformers
	// never does it for BPE models, and neither does Decode.
	CleanUpTokenizationSpaces bool
}

// FromFile loads a tokenizer.json. Its own truncation and padding settings,
// if any, apply to Encode, EncodePair and EncodeBatch as in tokenizers'
// Tokenizer.from_file; Batch uses its Options instead.
func FromFile(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizers: read %s: %w", path, err)
	}
	t, err := load(data, path)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// FromJSON loads the contents of a tokenizer.json.
func FromJSON(data []byte) (*Tokenizer, error) {
	return load(data, "tokenizer.json")
}

func load(data []byte, name string) (*Tokenizer, error) {
	p, err := pipeline.Load(data)
	if err != nil {
		return nil, fmt.Errorf("tokenizers: %s: %w", name, err)
	}
	t := &Tokenizer{p: p, name: name, raw: data, PaddingSide: "right", TruncationSide: "right"}
	if p.Padding != nil {
		t.PadToken, t.PadTokenTypeID = p.Padding.PadToken, p.Padding.PadTypeID
	}
	return t, nil
}

// Encode encodes one text, special tokens included ([CLS] … [SEP] for BERT).
func (t *Tokenizer) Encode(text string) (*Encoding, error) {
	e, err := t.p.Encode(text, nil, true, t.p.Truncation, t.p.Padding)
	if err != nil {
		return nil, fmt.Errorf("tokenizers: encode %.40q: %w", text, err)
	}
	return fromInternal(e), nil
}

// EncodePair encodes a pair of texts (question and context, premise and
// hypothesis) into one sequence, with token type ids 0 and 1.
func (t *Tokenizer) EncodePair(a, b string) (*Encoding, error) {
	e, err := t.p.Encode(a, &b, true, t.p.Truncation, t.p.Padding)
	if err != nil {
		return nil, fmt.Errorf("tokenizers: encode pair %.40q, %.40q: %w", a, b, err)
	}
	return fromInternal(e), nil
}

// EncodeBatch encodes texts in parallel (one goroutine per CPU), as
// tokenizers' encode_batch does.
func (t *Tokenizer) EncodeBatch(texts []string) ([]*Encoding, error) {
	encs, err := t.encodeAll(len(texts), func(i int) (*encoding.Encoding, error) {
		return t.p.Encode(texts[i], nil, true, t.p.Truncation, t.p.Padding)
	})
	if err != nil {
		return nil, err
	}
	if t.p.Padding != nil {
		if err := pipeline.PadEncodings(encs, t.p.Padding); err != nil {
			return nil, err
		}
	}
	out := make([]*Encoding, len(encs))
	for i, e := range encs {
		out[i] = fromInternal(e)
	}
	return out, nil
}

// encodeAll runs encode for 0..n-1 on a goroutine per CPU; the first error wins.
func (t *Tokenizer) encodeAll(n int, encode func(i int) (*encoding.Encoding, error)) ([]*encoding.Encoding, error) {
	out := make([]*encoding.Encoding, n)
	errs := make([]error, n)
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range out {
			if out[i], errs[i] = encode(i); errs[i] != nil {
				return nil, fmt.Errorf("tokenizers: batch item %d: %w", i, errs[i])
			}
		}
		return out, nil
	}
	var wg sync.WaitGroup
	var next int
	var mu sync.Mutex
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next += 8
				mu.Unlock()
				if i >= n {
					return
				}
				for k := i; k < min(i+8, n); k++ {
					out[k], errs[k] = encode(k)
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("tokenizers: batch item %d: %w", i, err)
		}
	}
	return out, nil
}

// Decode turns ids back into text; skipSpecialTokens drops [CLS], <s>, padding
// and the other special tokens. Ids the vocabulary lacks are skipped.
func (t *Tokenizer) Decode(ids []int, skipSpecialTokens bool) (string, error) {
	s, err := t.p.Decode(ids, skipSpecialTokens)
	if err != nil {
		return "", fmt.Errorf("tokenizers: decode: %w", err)
	}
	if t.CleanUpTokenizationSpaces && !t.p.IsBPE() {
		s = cleanUp(s)
	}
	return s, nil
}

// DecodeBatch decodes every id list.
func (t *Tokenizer) DecodeBatch(ids [][]int, skipSpecialTokens bool) ([]string, error) {
	out := make([]string, len(ids))
	for i, x := range ids {
		s, err := t.Decode(x, skipSpecialTokens)
		if err != nil {
			return nil, fmt.Errorf("tokenizers: decode batch item %d: %w", i, err)
		}
		out[i] = s
	}
	return out, nil
}

// TokenToID returns the id of a token, and whether it exists.
func (t *Tokenizer) TokenToID(token string) (int, bool) { return t.p.TokenToID(token) }

// IDToToken returns the token of an id, and whether it exists.
func (t *Tokenizer) IDToToken(id int) (string, bool) { return t.p.IDToToken(id) }

// VocabSize is the number of tokens, added tokens included.
func (t *Tokenizer) VocabSize() int { return t.p.VocabSize() }

// String describes the tokenizer.
func (t *Tokenizer) String() string {
	return fmt.Sprintf("tokenizers.Tokenizer(%s, %d tokens)", t.name, t.VocabSize())
}

// cleanUp is transformers' clean_up_tokenization.
func cleanUp(s string) string {
	for _, r := range [][2]string{{" .", "."}, {" ?", "?"}, {" !", "!"}, {" ,", ","}, {" ' ", "'"}, {" n't", "n't"},
		{" 'm", "'m"}, {" 's", "'s"}, {" 've", "'ve"}, {" 're", "'re"}} {
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	return s
}
