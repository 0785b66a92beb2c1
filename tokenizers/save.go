package tokenizers

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
)

// SavePretrained writes the tokenizer into dir (created if needed) as transformers'
// tokenizer.save_pretrained does, so that FromPretrained and transformers' AutoTokenizer load it
// back: tokenizer.json as it was read, and tokenizer_config.json and special_tokens_map.json
// holding the keys FromPretrained read (tokenizer_class, the special tokens, …) with the
// tokenizer's own settings written over them: model_max_length (when known), padding_side,
// truncation_side, clean_up_tokenization_spaces, pad_token and pad_token_type_id. Saving it
// beside a model SavePretrained of package transformers wrote makes the folder whole.
func (t *Tokenizer) SavePretrained(dir string) error {
	fail := func(err error) error { return fmt.Errorf("tokenizers: save pretrained %s: %w", dir, err) }
	if len(t.raw) == 0 {
		return fail(fmt.Errorf("the tokenizer was not read from a tokenizer.json"))
	}
	cfg := maps.Clone(t.configKeys)
	if cfg == nil {
		cfg = map[string]json.RawMessage{}
	}
	specials := maps.Clone(t.specialKeys)
	if specials == nil {
		specials = map[string]json.RawMessage{}
	}
	set := func(m map[string]json.RawMessage, key string, v any) {
		b, _ := json.Marshal(v)
		m[key] = b
	}
	if t.ModelMaxLength > 0 {
		set(cfg, "model_max_length", t.ModelMaxLength)
	}
	set(cfg, "padding_side", t.PaddingSide)
	set(cfg, "truncation_side", t.TruncationSide)
	set(cfg, "clean_up_tokenization_spaces", t.CleanUpTokenizationSpaces)
	if t.PadTokenTypeID != 0 || cfg["pad_token_type_id"] != nil {
		set(cfg, "pad_token_type_id", t.PadTokenTypeID)
	}
	var pad any // null when the tokenizer has no padding token
	if t.PadToken != "" {
		pad = t.PadToken
	}
	set(cfg, "pad_token", pad)
	if pad != nil || specials["pad_token"] != nil {
		set(specials, "pad_token", pad)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	files := []struct {
		name string
		v    map[string]json.RawMessage
	}{{"tokenizer_config.json", cfg}, {"special_tokens_map.json", specials}}
	for _, f := range files {
		b, err := json.MarshalIndent(f.v, "", "  ")
		if err != nil {
			return fail(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), append(b, '\n'), 0o644); err != nil {
			return fail(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), t.raw, 0o644); err != nil {
		return fail(err)
	}
	return nil
}
