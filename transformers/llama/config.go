package llama

import (
	"errors"
	"fmt"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// Config is LlamaConfig, and MistralConfig for "model_type": "mistral" (the same model with a
// sliding window and no biases): the keys of config.json, with transformers' defaults.
type Config struct {
	transformers.BaseConfig
	VocabSize         int `json:"vocab_size"`
	HiddenSize        int `json:"hidden_size"`
	IntermediateSize  int `json:"intermediate_size"`
	NumHiddenLayers   int `json:"num_hidden_layers"`
	NumAttentionHeads int `json:"num_attention_heads"`
	// NumKeyValueHeads is the number of key/value heads (grouped-query attention when fewer
	// than NumAttentionHeads, which it must divide); nil means NumAttentionHeads.
	NumKeyValueHeads *int `json:"num_key_value_heads"`
	// HeadDim is the size of a head; nil means HiddenSize / NumAttentionHeads.
	HeadDim               *int    `json:"head_dim"`
	HiddenAct             string  `json:"hidden_act"`
	MaxPositionEmbeddings int     `json:"max_position_embeddings"`
	InitializerRange      float64 `json:"initializer_range"`
	RMSNormEps            float64 `json:"rms_norm_eps"`
	// RopeParameters are transformers 5's rotary embedding settings: rope_theta and rope_type
	// ("default", "linear" or "llama3", with their factor, low_freq_factor, high_freq_factor,
	// original_max_position_embeddings). Files written before transformers 5 give rope_theta
	// and rope_scaling instead, which take precedence as in transformers.
	RopeParameters map[string]any `json:"rope_parameters,omitempty"`
	RopeScaling    map[string]any `json:"rope_scaling,omitempty"`
	RopeTheta      *float64       `json:"rope_theta,omitempty"`
	// AttentionBias and MLPBias give the projections biases (Llama only; Mistral has none).
	AttentionBias    bool    `json:"attention_bias,omitempty"`
	MLPBias          bool    `json:"mlp_bias,omitempty"`
	AttentionDropout float64 `json:"attention_dropout"`
	// SlidingWindow (Mistral) lets a token see only the SlidingWindow tokens up to itself; nil
	// is no window.
	SlidingWindow *int                  `json:"sliding_window,omitempty"`
	BOSTokenID    *int                  `json:"bos_token_id"`
	EOSTokenID    transformers.TokenIDs `json:"eos_token_id"`
}

// NewConfig returns LlamaConfig() with transformers' defaults (Llama 2 7B's shape).
func NewConfig() *Config {
	bos := 1
	return &Config{
		BaseConfig: transformers.BaseConfig{ModelType: "llama"},
		VocabSize:  32000, HiddenSize: 4096, IntermediateSize: 11008, NumHiddenLayers: 32, NumAttentionHeads: 32,
		HiddenAct: "silu", MaxPositionEmbeddings: 2048, InitializerRange: 0.02, RMSNormEps: 1e-6,
		RopeParameters: map[string]any{"rope_type": "default", "rope_theta": 10000.0},
		BOSTokenID:     &bos, EOSTokenID: transformers.TokenIDs{2},
	}
}

// NewMistralConfig returns MistralConfig() with transformers' defaults (Mistral 7B's shape).
func NewMistralConfig() *Config {
	c := NewConfig()
	kv, window := 8, 4096
	c.ModelType, c.IntermediateSize, c.NumKeyValueHeads, c.MaxPositionEmbeddings, c.SlidingWindow = "mistral", 14336, &kv, 131072, &window
	return c
}

// Validate implements transformers.Config.
func (c *Config) Validate() error {
	errs := []error{modeling.CheckPositive("vocab_size", c.VocabSize, "hidden_size", c.HiddenSize,
		"intermediate_size", c.IntermediateSize, "num_hidden_layers", c.NumHiddenLayers,
		"num_attention_heads", c.NumAttentionHeads, "max_position_embeddings", c.MaxPositionEmbeddings)}
	if c.NumAttentionHeads > 0 {
		if c.HeadDim == nil && c.HiddenSize%c.NumAttentionHeads != 0 {
			errs = append(errs, fmt.Errorf("config key hidden_size: %d is not a multiple of num_attention_heads %d (or give head_dim)", c.HiddenSize, c.NumAttentionHeads))
		}
		if kv := c.kvHeads(); kv <= 0 || c.NumAttentionHeads%kv != 0 {
			errs = append(errs, fmt.Errorf("config key num_key_value_heads: %d does not divide num_attention_heads %d (each key/value head serves a whole group of query heads)", kv, c.NumAttentionHeads))
		}
		if d := c.headDim(); d <= 0 || d%2 != 0 {
			errs = append(errs, fmt.Errorf("config key head_dim: %d must be positive and even (rotary embeddings turn pairs of features)", d))
		}
	}
	if _, err := modeling.Activation("hidden_act", c.HiddenAct); err != nil {
		errs = append(errs, err)
	}
	if !(c.AttentionDropout >= 0 && c.AttentionDropout < 1) {
		errs = append(errs, fmt.Errorf("config key attention_dropout: %v is not a probability in [0, 1)", c.AttentionDropout))
	}
	if !(c.RMSNormEps > 0) {
		errs = append(errs, fmt.Errorf("config key rms_norm_eps: must be positive, have %v", c.RMSNormEps))
	}
	if _, err := c.rope(); err != nil {
		errs = append(errs, err)
	}
	if c.SlidingWindow != nil && *c.SlidingWindow <= 0 {
		errs = append(errs, fmt.Errorf("config key sliding_window: must be positive or null, have %d", *c.SlidingWindow))
	}
	return errors.Join(errs...)
}

// kvHeads is num_key_value_heads, or num_attention_heads.
func (c *Config) kvHeads() int {
	if c.NumKeyValueHeads != nil {
		return *c.NumKeyValueHeads
	}
	return c.NumAttentionHeads
}

// headDim is head_dim, or hidden_size / num_attention_heads.
func (c *Config) headDim() int {
	if c.HeadDim != nil && *c.HeadDim > 0 {
		return *c.HeadDim
	}
	return c.HiddenSize / c.NumAttentionHeads
}

// mistral reports a Mistral configuration.
func (c *Config) mistral() bool { return c.ModelType == "mistral" }

// attentionBias and mlpBias are the projections' biases (Mistral never has them).
func (c *Config) attentionBias() bool { return c.AttentionBias && !c.mistral() }
func (c *Config) mlpBias() bool       { return c.MLPBias && !c.mistral() }

// window is the sliding window (Mistral), 0 for none.
func (c *Config) window() int {
	if c.mistral() && c.SlidingWindow != nil {
		return *c.SlidingWindow
	}
	return 0
}

// tied reports whether lm_head shares the token embedding (tie_word_embeddings, default false).
func (c *Config) tied() bool { return c.TieWordEmbeddings != nil && *c.TieWordEmbeddings }

// padIdx is pad_token_id (-1 when null).
func (c *Config) padIdx() int {
	if c.PadTokenID == nil {
		return -1
	}
	return *c.PadTokenID
}

// dtype is the parameters' type the configuration asks for.
func (c *Config) dtype() (tensors.DType, error) {
	if c.DType == "" {
		return tensors.Float32, nil
	}
	return transformers.ParseDType(c.DType)
}

// prefix is the architectures' prefix: "Llama" or "Mistral".
func (c *Config) prefix() string {
	if c.mistral() {
		return "Mistral"
	}
	return "Llama"
}

// generationConfig is what generation takes from the configuration and generation_config.json
// (rotary positions have no table, so no length limit).
func (c *Config) generationConfig() transformers.GenerationConfig {
	return transformers.GenerationConfig{BOSTokenID: c.BOSTokenID, EOSTokenIDs: c.EOSTokenID, PadTokenID: c.PadTokenID}.WithFile(c.Generation)
}
