package tokenizers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/goaccel/goaccel/tokenizers/internal/pipeline"
)

// FromPretrained loads the tokenizer of a Hugging Face snapshot folder (the
// one holding config.json and model.safetensors): tokenizer.json, and
// tokenizer_config.json (with special_tokens_map.json) for what
// transformers' AutoTokenizer takes from them: model_max_length,
// padding_side, truncation_side, the special tokens (pad_token…, added to the
// vocabulary when missing, as transformers does) and
// clean_up_tokenization_spaces. Like transformers 5, it ignores
// add_bos_token and add_eos_token when there is a tokenizer.json: the
// post-processor there decides which special tokens are added.
//
// The pipeline is tokenizer.json's own, as transformers uses it for
// PreTrainedTokenizerFast and for model classes without their own
// pipeline; a few model classes of transformers 5 (Llama's, T5's) rebuild
// the pipeline from the vocabulary instead, which FromPretrained does not.
func FromPretrained(dir string) (*Tokenizer, error) {
	path := filepath.Join(dir, "tokenizer.json")
	t, err := FromFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("tokenizers: %s has no tokenizer.json (goaccel reads only the fast tokenizer format; in Python, AutoTokenizer.from_pretrained(dir).save_pretrained(dir) writes one): %w", dir, err)
		}
		return nil, err
	}
	cfg, err := readConfig(dir)
	if err != nil {
		return nil, err
	}
	if err := t.configure(cfg); err != nil {
		return nil, fmt.Errorf("tokenizers: %s: %w", filepath.Join(dir, "tokenizer_config.json"), err)
	}
	t.configKeys, t.specialKeys = cfg.configKeys, cfg.specialKeys
	return t, nil
}

// tokenizerConfig is what FromPretrained reads of tokenizer_config.json.
type tokenizerConfig struct {
	ModelMaxLength *float64 `json:"model_max_length"`
	PaddingSide    string   `json:"padding_side"`
	TruncationSide string   `json:"truncation_side"`
	CleanUp        *bool    `json:"clean_up_tokenization_spaces"`
	PadTokenTypeID *int     `json:"pad_token_type_id"`
	Special        map[string]json.RawMessage
	// the files' keys, for SavePretrained
	configKeys, specialKeys map[string]json.RawMessage
}

var specialNames = []string{"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"}

func readConfig(dir string) (*tokenizerConfig, error) {
	cfg := &tokenizerConfig{Special: map[string]json.RawMessage{}}
	for _, name := range []string{"special_tokens_map.json", "tokenizer_config.json"} {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("tokenizers: read %s: %w", path, err)
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(data, &fields); err != nil {
			return nil, fmt.Errorf("tokenizers: %s is not valid JSON: %w", path, err)
		}
		for _, s := range specialNames {
			if v, ok := fields[s]; ok {
				cfg.Special[s] = v
			}
		}
		if name == "special_tokens_map.json" {
			cfg.specialKeys = fields
		}
		if name == "tokenizer_config.json" {
			cfg.configKeys = fields
			if err := json.Unmarshal(data, cfg); err != nil {
				return nil, fmt.Errorf("tokenizers: %s: %w", path, err)
			}
		}
	}
	return cfg, nil
}

// specialToken reads a special token given as a string or as an AddedToken
// object ({"content": …}); "" when absent or null.
func specialToken(raw json.RawMessage) (pipeline.AddedToken, error) {
	tok := pipeline.AddedToken{Special: true}
	if len(raw) == 0 || string(raw) == "null" {
		return tok, nil
	}
	if json.Unmarshal(raw, &tok.Content) == nil {
		return tok, nil
	}
	var o struct {
		Content    string `json:"content"`
		SingleWord bool   `json:"single_word"`
		LStrip     bool   `json:"lstrip"`
		RStrip     bool   `json:"rstrip"`
		Normalized bool   `json:"normalized"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return tok, fmt.Errorf("a special token must be a string or an object with \"content\": %s", raw)
	}
	return pipeline.AddedToken{Content: o.Content, SingleWord: o.SingleWord, LStrip: o.LStrip, RStrip: o.RStrip,
		Normalized: o.Normalized, Special: true}, nil
}

func (t *Tokenizer) configure(cfg *tokenizerConfig) error {
	if m := cfg.ModelMaxLength; m != nil && *m > 0 && *m <= veryLarge && !math.IsInf(*m, 0) {
		t.ModelMaxLength = int(*m)
	}
	if cfg.PaddingSide != "" {
		t.PaddingSide = cfg.PaddingSide
	}
	if cfg.TruncationSide != "" {
		t.TruncationSide = cfg.TruncationSide
	}
	if cfg.CleanUp != nil {
		t.CleanUpTokenizationSpaces = *cfg.CleanUp
	}
	if cfg.PadTokenTypeID != nil {
		t.PadTokenTypeID = *cfg.PadTokenTypeID
	}
	specials := map[string]string{}
	var missing []pipeline.AddedToken
	known := t.p.AddedTokens()
	for _, name := range specialNames {
		tok, err := specialToken(cfg.Special[name])
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if tok.Content == "" {
			continue
		}
		specials[name] = tok.Content
		found := false
		for _, a := range known {
			if a.Content == tok.Content {
				found = true
			}
		}
		if !found {
			missing = append(missing, tok)
		}
	}
	if len(missing) > 0 {
		if err := t.p.AddTokens(missing); err != nil {
			return err
		}
	}
	if p, ok := specials["pad_token"]; ok {
		t.PadToken = p
	}
	return nil
}
