package bert

import (
	"errors"
	"fmt"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// Config is BertConfig: the keys of a BERT config.json (MiniLM, BERT-base, … have
// "model_type": "bert"), with transformers' defaults.
type Config struct {
	transformers.BaseConfig
	VocabSize                 int     `json:"vocab_size"`
	HiddenSize                int     `json:"hidden_size"`
	NumHiddenLayers           int     `json:"num_hidden_layers"`
	NumAttentionHeads         int     `json:"num_attention_heads"`
	IntermediateSize          int     `json:"intermediate_size"`
	HiddenAct                 string  `json:"hidden_act"`
	HiddenDropoutProb         float64 `json:"hidden_dropout_prob"`
	AttentionProbsDropoutProb float64 `json:"attention_probs_dropout_prob"`
	MaxPositionEmbeddings     int     `json:"max_position_embeddings"`
	TypeVocabSize             int     `json:"type_vocab_size"`
	InitializerRange          float64 `json:"initializer_range"`
	LayerNormEps              float64 `json:"layer_norm_eps"`
	// PositionEmbeddingType must be "absolute" (the relative kinds of old checkpoints are not
	// supported).
	PositionEmbeddingType string `json:"position_embedding_type,omitempty"`
	// ClassifierDropout is the classification heads' dropout; nil takes HiddenDropoutProb.
	ClassifierDropout *float64 `json:"classifier_dropout"`
	// IsDecoder and AddCrossAttention (BERT as a decoder) are not supported: Validate refuses
	// them.
	IsDecoder         bool `json:"is_decoder"`
	AddCrossAttention bool `json:"add_cross_attention"`
}

// NewConfig returns BertConfig() with transformers' defaults (BERT-base).
func NewConfig() *Config {
	pad := 0
	return &Config{
		BaseConfig: transformers.BaseConfig{ModelType: "bert", PadTokenID: &pad},
		VocabSize:  30522, HiddenSize: 768, NumHiddenLayers: 12, NumAttentionHeads: 12, IntermediateSize: 3072,
		HiddenAct: "gelu", HiddenDropoutProb: 0.1, AttentionProbsDropoutProb: 0.1, MaxPositionEmbeddings: 512,
		TypeVocabSize: 2, InitializerRange: 0.02, LayerNormEps: 1e-12, PositionEmbeddingType: "absolute",
	}
}

// Validate implements transformers.Config.
func (c *Config) Validate() error {
	errs := []error{modeling.CheckPositive("vocab_size", c.VocabSize, "hidden_size", c.HiddenSize,
		"num_hidden_layers", c.NumHiddenLayers, "num_attention_heads", c.NumAttentionHeads,
		"intermediate_size", c.IntermediateSize, "max_position_embeddings", c.MaxPositionEmbeddings,
		"type_vocab_size", c.TypeVocabSize)}
	if c.NumAttentionHeads > 0 && c.HiddenSize%c.NumAttentionHeads != 0 {
		errs = append(errs, fmt.Errorf("config key hidden_size: %d is not a multiple of num_attention_heads %d", c.HiddenSize, c.NumAttentionHeads))
	}
	if _, err := modeling.Activation("hidden_act", c.HiddenAct); err != nil {
		errs = append(errs, err)
	}
	for k, p := range map[string]float64{"hidden_dropout_prob": c.HiddenDropoutProb, "attention_probs_dropout_prob": c.AttentionProbsDropoutProb} {
		if !(p >= 0 && p < 1) {
			errs = append(errs, fmt.Errorf("config key %s: %v is not a probability in [0, 1)", k, p))
		}
	}
	if c.PositionEmbeddingType != "" && c.PositionEmbeddingType != "absolute" {
		errs = append(errs, fmt.Errorf("config key position_embedding_type: %q is not supported (absolute only)", c.PositionEmbeddingType))
	}
	if c.IsDecoder || c.AddCrossAttention {
		errs = append(errs, errors.New("config keys is_decoder / add_cross_attention: BERT as a decoder is not supported"))
	}
	if !(c.LayerNormEps > 0) {
		errs = append(errs, fmt.Errorf("config key layer_norm_eps: must be positive, have %v", c.LayerNormEps))
	}
	return errors.Join(errs...)
}

// dtype is the parameters' type the configuration asks for.
func (c *Config) dtype() (tensors.DType, error) {
	if c.DType == "" {
		return tensors.Float32, nil
	}
	return transformers.ParseDType(c.DType)
}

// classifierDropout is classifier_dropout, else hidden_dropout_prob.
func (c *Config) classifierDropout() float64 {
	if c.ClassifierDropout != nil {
		return *c.ClassifierDropout
	}
	return c.HiddenDropoutProb
}

// padIdx is pad_token_id (-1 when null).
func (c *Config) padIdx() int {
	if c.PadTokenID == nil {
		return -1
	}
	return *c.PadTokenID
}

// tied reports whether an output layer shares the word embeddings (tie_word_embeddings,
// default true).
func (c *Config) tied() bool { return c.TieWordEmbeddings == nil || *c.TieWordEmbeddings }
