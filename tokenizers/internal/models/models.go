// Package models holds tokenizers' models (BPE, WordPiece, Unigram,
// WordLevel), which turn one pre-tokenised piece into tokens, and Parse,
// which builds one from the "model" object of a tokenizer.json.
package models

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/goaccel/goaccel/tokenizers/internal/normstr"
	"github.com/goaccel/goaccel/tokenizers/internal/spec"
)

// Model tokenises one piece.
type Model interface {
	Tokenize(s string) ([]normstr.Token, error)
	TokenToID(token string) (int, bool)
	IDToToken(id int) (string, bool)
	VocabSize() int
}

// Parse builds the model a tokenizer.json describes. A model without a
// "type" is recognised by its fields, as tokenizers does for old files.
func Parse(raw json.RawMessage) (Model, error) {
	if spec.IsNull(raw) {
		return nil, fmt.Errorf("model: missing (a tokenizer.json needs a \"model\")")
	}
	o, err := spec.Parse("model", raw)
	if err != nil {
		return nil, err
	}
	typ := o.Type
	if typ == "" {
		switch {
		case o.Has("merges"):
			typ = "BPE"
		case o.Has("continuing_subword_prefix") || o.Has("max_input_chars_per_word"):
			typ = "WordPiece"
		case o.Has("unk_id") || isList(o.Raw("vocab")):
			typ = "Unigram"
		case o.Has("vocab"):
			typ = "WordLevel"
		}
		o.Type = typ
	}
	switch typ {
	case "BPE":
		return parseBPE(o)
	case "WordPiece":
		var vocab map[string]int
		if err := o.Get("vocab", &vocab, true); err != nil {
			return nil, err
		}
		unk, prefix, maxChars := "[UNK]", "##", 100
		for name, p := range map[string]*string{"unk_token": &unk, "continuing_subword_prefix": &prefix} {
			if err := o.Get(name, p, false); err != nil {
				return nil, err
			}
		}
		if err := o.Get("max_input_chars_per_word", &maxChars, false); err != nil {
			return nil, err
		}
		return NewWordPiece(vocab, unk, prefix, maxChars), nil
	case "WordLevel":
		var vocab map[string]int
		if err := o.Get("vocab", &vocab, true); err != nil {
			return nil, err
		}
		unk := "<unk>"
		if err := o.Get("unk_token", &unk, false); err != nil {
			return nil, err
		}
		return NewWordLevel(vocab, unk), nil
	case "Unigram":
		var vocab [][2]json.RawMessage
		if err := o.Get("vocab", &vocab, true); err != nil {
			return nil, err
		}
		pieces, scores := make([]string, len(vocab)), make([]float64, len(vocab))
		for i, v := range vocab {
			if err := json.Unmarshal(v[0], &pieces[i]); err != nil {
				return nil, o.Errorf("vocab entry %d: piece: %v", i, err)
			}
			f, err := spec.ParseFloat(string(v[1]))
			if err != nil {
				return nil, o.Errorf("vocab entry %d: score: %v", i, err)
			}
			scores[i] = f
		}
		unkID := -1
		if o.Has("unk_id") {
			if err := o.Get("unk_id", &unkID, false); err != nil {
				return nil, err
			}
		}
		var byteFallback bool
		if err := o.Get("byte_fallback", &byteFallback, false); err != nil {
			return nil, err
		}
		u, err := NewUnigram(pieces, scores, unkID, byteFallback)
		if err != nil {
			return nil, o.Errorf("%v", err)
		}
		return u, nil
	case "":
		return nil, fmt.Errorf("model without a \"type\" that goaccel cannot recognise by its fields")
	}
	return nil, o.Unsupported()
}

func isList(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return strings.HasPrefix(t, "[")
}

func parseBPE(o *spec.Object) (Model, error) {
	c := BPEConfig{}
	if err := o.Get("vocab", &c.Vocab, true); err != nil {
		return nil, err
	}
	var raw []json.RawMessage
	if err := o.Get("merges", &raw, true); err != nil {
		return nil, err
	}
	c.Merges = make([][2]string, 0, len(raw))
	for i, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			if strings.HasPrefix(s, "#version") {
				continue
			}
			parts := strings.Split(s, " ")
			if len(parts) != 2 {
				return nil, o.Errorf("merges text invalid at line %d: %q is not two tokens separated by a space", i+1, s)
			}
			c.Merges = append(c.Merges, [2]string{parts[0], parts[1]})
			continue
		}
		var m [2]string
		if err := json.Unmarshal(r, &m); err != nil {
			return nil, o.Errorf("merge %d is neither \"a b\" nor [\"a\", \"b\"]: %v", i, err)
		}
		c.Merges = append(c.Merges, m)
	}
	var dropout *float64
	if err := o.Get("dropout", &dropout, false); err != nil {
		return nil, err
	}
	if dropout != nil && (*dropout < 0 || *dropout > 1 || math.IsNaN(*dropout)) {
		return nil, o.Errorf("dropout should be between 0 and 1, inclusive (got %v)", *dropout)
	}
	if dropout != nil && *dropout > 0 {
		return nil, o.Errorf("dropout %v is random merge skipping (training only); goaccel encodes deterministically and refuses it: set \"dropout\": null", *dropout)
	}
	for name, p := range map[string]*string{"continuing_subword_prefix": &c.ContinuingSubwordPrefix, "end_of_word_suffix": &c.EndOfWordSuffix} {
		if err := o.Get(name, p, false); err != nil {
			return nil, err
		}
	}
	if o.Has("unk_token") {
		var unk string
		if err := o.Get("unk_token", &unk, false); err != nil {
			return nil, err
		}
		c.UnkToken = &unk
	}
	for name, p := range map[string]*bool{"fuse_unk": &c.FuseUnk, "byte_fallback": &c.ByteFallback, "ignore_merges": &c.IgnoreMerges} {
		if err := o.Get(name, p, false); err != nil {
			return nil, err
		}
	}
	m, err := NewBPE(c)
	if err != nil {
		return nil, o.Errorf("%v", err)
	}
	return m, nil
}
