package gpt2

import (
	"errors"
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// Config is GPT2Config: the keys of a GPT-2 config.json ("model_type": "gpt2"), with
// transformers' defaults (GPT-2 small).
type Config struct {
	transformers.BaseConfig
	VocabSize  int `json:"vocab_size"`
	NPositions int `json:"n_positions"` // the longest sequence: learned positions
	NEmbd      int `json:"n_embd"`
	NLayer     int `json:"n_layer"`
	NHead      int `json:"n_head"`
	// NInner is the feed-forward width; nil means 4·NEmbd.
	NInner *int `json:"n_inner"`
	// ActivationFunction is the feed-forward activation, one of transformers' ACT2FN names
	// ("gelu_new", the tanh approximation, for GPT-2).
	ActivationFunction string  `json:"activation_function"`
	ResidPdrop         float64 `json:"resid_pdrop"`
	EmbdPdrop          float64 `json:"embd_pdrop"`
	AttnPdrop          float64 `json:"attn_pdrop"`
	LayerNormEpsilon   float64 `json:"layer_norm_epsilon"`
	InitializerRange   float64 `json:"initializer_range"`
	// ScaleAttnWeights divides the scores by √head size; ScaleAttnByInverseLayerIdx further by
	// the layer's number (from 1).
	ScaleAttnWeights           bool `json:"scale_attn_weights"`
	ScaleAttnByInverseLayerIdx bool `json:"scale_attn_by_inverse_layer_idx"`
	// ReorderAndUpcastAttn computes the scores in float32 in transformers' eager attention;
	// goaccel's attention always accumulates in float32.
	ReorderAndUpcastAttn bool `json:"reorder_and_upcast_attn"`
	// AddCrossAttention (GPT-2 as the decoder of an encoder-decoder) is not supported: Validate
	// refuses it.
	AddCrossAttention bool                  `json:"add_cross_attention"`
	BOSTokenID        *int                  `json:"bos_token_id"`
	EOSTokenID        transformers.TokenIDs `json:"eos_token_id"`
}

// NewConfig returns GPT2Config() with transformers' defaults (GPT-2 small: 124M parameters).
func NewConfig() *Config {
	eos, bos := 50256, 50256
	return &Config{
		BaseConfig: transformers.BaseConfig{ModelType: "gpt2"},
		VocabSize:  50257, NPositions: 1024, NEmbd: 768, NLayer: 12, NHead: 12, ActivationFunction: "gelu_new",
		ResidPdrop: 0.1, EmbdPdrop: 0.1, AttnPdrop: 0.1, LayerNormEpsilon: 1e-5, InitializerRange: 0.02,
		ScaleAttnWeights: true, BOSTokenID: &bos, EOSTokenID: transformers.TokenIDs{eos},
	}
}

// Validate implements transformers.Config.
func (c *Config) Validate() error {
	errs := []error{modeling.CheckPositive("vocab_size", c.VocabSize, "n_positions", c.NPositions, "n_embd", c.NEmbd,
		"n_layer", c.NLayer, "n_head", c.NHead, "n_inner", c.inner())}
	if c.NHead > 0 && c.NEmbd%c.NHead != 0 {
		errs = append(errs, fmt.Errorf("config key n_embd: %d is not a multiple of n_head %d", c.NEmbd, c.NHead))
	}
	if _, err := modeling.Activation("activation_function", c.ActivationFunction); err != nil {
		errs = append(errs, err)
	}
	for k, p := range map[string]float64{"resid_pdrop": c.ResidPdrop, "embd_pdrop": c.EmbdPdrop, "attn_pdrop": c.AttnPdrop} {
		if !(p >= 0 && p < 1) {
			errs = append(errs, fmt.Errorf("config key %s: %v is not a probability in [0, 1)", k, p))
		}
	}
	if !(c.LayerNormEpsilon > 0) {
		errs = append(errs, fmt.Errorf("config key layer_norm_epsilon: must be positive, have %v", c.LayerNormEpsilon))
	}
	if c.AddCrossAttention {
		errs = append(errs, errors.New("config key add_cross_attention: GPT-2 with cross-attention (the decoder of an encoder-decoder model) is not supported"))
	}
	return errors.Join(errs...)
}

// inner is the feed-forward width, n_inner or 4·n_embd.
func (c *Config) inner() int {
	if c.NInner != nil {
		return *c.NInner
	}
	return 4 * c.NEmbd
}

// dtype is the parameters' type the configuration asks for.
func (c *Config) dtype() (tensors.DType, error) {
	if c.DType == "" {
		return tensors.Float32, nil
	}
	return transformers.ParseDType(c.DType)
}

// scale is the attention scale of layer i (from 0): 1/√head size unless scale_attn_weights is
// false, divided by i+1 with scale_attn_by_inverse_layer_idx.
func (c *Config) scale(i int) float64 {
	s := 1.0
	if c.ScaleAttnWeights {
		s = 0 // the kernel's default, 1/√D
		if c.ScaleAttnByInverseLayerIdx {
			s = math.Pow(float64(c.NEmbd/c.NHead), -0.5) / float64(i+1)
		}
	} else if c.ScaleAttnByInverseLayerIdx {
		s = 1 / float64(i+1)
	}
	return s
}

// generationConfig is what generation takes from the configuration (and generation_config.json).
func (c *Config) generationConfig() transformers.GenerationConfig {
	return transformers.GenerationConfig{BOSTokenID: c.BOSTokenID, EOSTokenIDs: c.EOSTokenID, PadTokenID: c.PadTokenID, MaxPositions: c.NPositions}.WithFile(c.Generation)
}
