// Package pipeline is a tokenizer.json loaded: the added vocabulary, the
// normaliser, pre-tokeniser, model, post-processor and decoder, and the
// encode and decode steps that run them in tokenizers' order, with its
// truncation and padding.
package pipeline

import (
	"encoding/json"
	"fmt"

	"github.com/goaccel/goaccel/tokenizers/internal/decoders"
	"github.com/goaccel/goaccel/tokenizers/internal/models"
	"github.com/goaccel/goaccel/tokenizers/internal/normalizers"
	"github.com/goaccel/goaccel/tokenizers/internal/pretokenizers"
	"github.com/goaccel/goaccel/tokenizers/internal/processors"
)

// Tokenizer is a loaded tokenizer.json.
type Tokenizer struct {
	Normalizer   normalizers.Normalizer
	PreTokenizer pretokenizers.PreTokenizer
	Model        models.Model
	Processor    processors.Processor
	Decoder      decoders.Decoder
	added        *added
	// Truncation and Padding are the file's own settings (nil when absent),
	// which Encode applies as tokenizers' Tokenizer.encode does.
	Truncation *Truncation
	Padding    *Padding
}

type fileJSON struct {
	Version       *string          `json:"version"`
	Truncation    json.RawMessage  `json:"truncation"`
	Padding       json.RawMessage  `json:"padding"`
	AddedTokens   []addedTokenJSON `json:"added_tokens"`
	Normalizer    json.RawMessage  `json:"normalizer"`
	PreTokenizer  json.RawMessage  `json:"pre_tokenizer"`
	PostProcessor json.RawMessage  `json:"post_processor"`
	Decoder       json.RawMessage  `json:"decoder"`
	Model         json.RawMessage  `json:"model"`
}

type addedTokenJSON struct {
	ID         int    `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized *bool  `json:"normalized"`
	Special    bool   `json:"special"`
}

// Load reads the JSON of a tokenizer.json. Every component type it does not
// implement is an error naming it.
func Load(data []byte) (*Tokenizer, error) {
	var f fileJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a valid tokenizer.json: %w", err)
	}
	if f.Version != nil && *f.Version != "1.0" {
		return nil, fmt.Errorf("unknown tokenizer version %q (goaccel reads version 1.0)", *f.Version)
	}
	t := &Tokenizer{added: newAdded()}
	var err error
	if t.Model, err = models.Parse(f.Model); err != nil {
		return nil, err
	}
	if t.Normalizer, err = normalizers.Parse(f.Normalizer); err != nil {
		return nil, err
	}
	if t.PreTokenizer, err = pretokenizers.Parse(f.PreTokenizer); err != nil {
		return nil, err
	}
	if t.Processor, err = processors.Parse(f.PostProcessor); err != nil {
		return nil, err
	}
	if t.Decoder, err = decoders.Parse(f.Decoder); err != nil {
		return nil, err
	}
	if t.Truncation, err = parseTruncation(f.Truncation); err != nil {
		return nil, err
	}
	if t.Padding, err = parsePadding(f.Padding); err != nil {
		return nil, err
	}
	toks := make([]AddedToken, len(f.AddedTokens))
	for i, a := range f.AddedTokens {
		norm := !a.Special
		if a.Normalized != nil {
			norm = *a.Normalized
		}
		toks[i] = AddedToken{Content: a.Content, SingleWord: a.SingleWord, LStrip: a.LStrip, RStrip: a.RStrip, Normalized: norm, Special: a.Special}
	}
	if err := t.added.add(toks, t.Model, t.Normalizer); err != nil {
		return nil, fmt.Errorf("added_tokens: %w", err)
	}
	return t, nil
}

// TokenToID returns the id of a token (added tokens first).
func (t *Tokenizer) TokenToID(tok string) (int, bool) {
	if id, ok := t.added.ids[tok]; ok {
		return id, true
	}
	return t.Model.TokenToID(tok)
}

// IDToToken returns the token of an id (added tokens first).
func (t *Tokenizer) IDToToken(id int) (string, bool) {
	if s, ok := t.added.tokenForDecode(id); ok {
		return s, true
	}
	return t.Model.IDToToken(id)
}

// VocabSize is the number of distinct tokens, added ones included.
func (t *Tokenizer) VocabSize() int {
	n := t.Model.VocabSize()
	for tok := range t.added.ids {
		if _, ok := t.Model.TokenToID(tok); !ok {
			n++
		}
	}
	return n
}

// IsSpecial reports whether tok is a special added token.
func (t *Tokenizer) IsSpecial(tok string) bool { return t.added.special[tok] }

// AddedTokens returns the added tokens by id.
func (t *Tokenizer) AddedTokens() map[int]AddedToken {
	out := make(map[int]AddedToken, len(t.added.byID))
	for id, a := range t.added.byID {
		out[id] = a
	}
	return out
}

// Decode turns ids back into text; unknown ids are skipped.
func (t *Tokenizer) Decode(ids []int, skipSpecial bool) (string, error) {
	toks := make([]string, 0, len(ids))
	for _, id := range ids {
		s, ok := t.IDToToken(id)
		if !ok || (skipSpecial && t.added.special[s]) {
			continue
		}
		toks = append(toks, s)
	}
	if t.Decoder == nil {
		out := ""
		for i, s := range toks {
			if i > 0 {
				out += " "
			}
			out += s
		}
		return out, nil
	}
	return decoders.Decode(t.Decoder, toks)
}

// IsBPE reports whether the model is BPE (transformers never cleans up
// the spaces of decoded BPE text).
func (t *Tokenizer) IsBPE() bool {
	_, ok := t.Model.(*models.BPE)
	return ok
}

// AddTokens adds tokens to the added vocabulary (add_tokens).
func (t *Tokenizer) AddTokens(toks []AddedToken) error {
	return t.added.add(toks, t.Model, t.Normalizer)
}
