package llama

import (
	"fmt"

	"github.com/goaccel/goaccel/transformers"
)

func init() {
	for _, f := range []struct {
		modelType, prefix string
		newConfig         func() *Config
	}{{"llama", "Llama", NewConfig}, {"mistral", "Mistral", NewMistralConfig}} {
		transformers.Register(transformers.Family{
			ModelType:       f.modelType,
			BaseModelPrefix: "model",
			NewConfig:       func() transformers.Config { return f.newConfig() },
			// Older checkpoints hold the rotary embedding's inverse frequencies as buffers.
			IgnoreOnLoad: []string{"rotary_emb.inv_freq"},
			Architectures: []transformers.Architecture{
				{Name: f.prefix + "Model", Task: transformers.BaseModel, New: func(c transformers.Config) (transformers.Model, error) {
					cfg, err := config(c)
					if err != nil {
						return nil, err
					}
					return NewModel(cfg)
				}},
				{Name: f.prefix + "ForCausalLM", Task: transformers.CausalLM, New: func(c transformers.Config) (transformers.Model, error) {
					cfg, err := config(c)
					if err != nil {
						return nil, err
					}
					return NewForCausalLM(cfg)
				}},
				{Name: f.prefix + "ForSequenceClassification", Task: transformers.SequenceClassification, New: func(c transformers.Config) (transformers.Model, error) {
					cfg, err := config(c)
					if err != nil {
						return nil, err
					}
					return NewForSequenceClassification(cfg)
				}},
			},
		})
	}
}

// config is c as a Llama (or Mistral) configuration.
func config(c transformers.Config) (*Config, error) {
	cfg, ok := c.(*Config)
	if !ok {
		return nil, fmt.Errorf("llama: configuration of type %T, want *llama.Config", c)
	}
	return cfg, nil
}
