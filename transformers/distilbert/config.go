package distilbert

import (
	"errors"
	"fmt"

	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// Config is DistilBertConfig, with transformers' defaults (distilbert-base).
type Config struct {
	transformers.BaseConfig
	VocabSize             int     `json:"vocab_size"`
	MaxPositionEmbeddings int     `json:"max_position_embeddings"`
	SinusoidalPosEmbds    bool    `json:"sinusoidal_pos_embds"`
	NLayers               int     `json:"n_layers"`
	NHeads                int     `json:"n_heads"`
	Dim                   int     `json:"dim"`
	HiddenDim             int     `json:"hidden_dim"`
	Dropout               float64 `json:"dropout"`
	AttentionDropout      float64 `json:"attention_dropout"`
	Activation            string  `json:"activation"`
	InitializerRange      float64 `json:"initializer_range"`
	QADropout             float64 `json:"qa_dropout"`
	SeqClassifDropout     float64 `json:"seq_classif_dropout"`
}

// NewConfig returns DistilBertConfig() with transformers' defaults.
func NewConfig() *Config {
	pad := 0
	return &Config{BaseConfig: transformers.BaseConfig{ModelType: "distilbert", PadTokenID: &pad},
		VocabSize: 30522, MaxPositionEmbeddings: 512, NLayers: 6, NHeads: 12, Dim: 768, HiddenDim: 4 * 768,
		Dropout: 0.1, AttentionDropout: 0.1, Activation: "gelu", InitializerRange: 0.02, QADropout: 0.1, SeqClassifDropout: 0.2}
}

// Validate implements transformers.Config.
func (c *Config) Validate() error {
	errs := []error{modeling.CheckPositive("vocab_size", c.VocabSize, "max_position_embeddings", c.MaxPositionEmbeddings,
		"n_layers", c.NLayers, "n_heads", c.NHeads, "dim", c.Dim, "hidden_dim", c.HiddenDim)}
	if c.NHeads > 0 && c.Dim%c.NHeads != 0 {
		errs = append(errs, fmt.Errorf("config key dim: %d is not a multiple of n_heads %d", c.Dim, c.NHeads))
	}
	if _, err := modeling.Activation("activation", c.Activation); err != nil {
		errs = append(errs, err)
	}
	for k, p := range map[string]float64{"dropout": c.Dropout, "attention_dropout": c.AttentionDropout, "seq_classif_dropout": c.SeqClassifDropout} {
		if !(p >= 0 && p < 1) {
			errs = append(errs, fmt.Errorf("config key %s: %v is not a probability in [0, 1)", k, p))
		}
	}
	return errors.Join(errs...)
}

func (c *Config) padIdx() int {
	if c.PadTokenID == nil {
		return -1
	}
	return *c.PadTokenID
}
