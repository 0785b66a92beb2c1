package gpt2

import (
	"fmt"

	"github.com/goaccel/goaccel/transformers"
)

func init() {
	transformers.Register(transformers.Family{
		ModelType:       "gpt2",
		BaseModelPrefix: "transformer",
		NewConfig:       func() transformers.Config { return NewConfig() },
		// Older checkpoints hold the causal mask as buffers (transformers drops them too).
		IgnoreOnLoad: []string{"attn.bias", "attn.masked_bias"},
		Architectures: []transformers.Architecture{
			{Name: "GPT2Model", Task: transformers.BaseModel, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := config(c)
				if err != nil {
					return nil, err
				}
				return NewModel(cfg)
			}},
			{Name: "GPT2LMHeadModel", Task: transformers.CausalLM, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := config(c)
				if err != nil {
					return nil, err
				}
				return NewLMHeadModel(cfg)
			}},
			{Name: "GPT2ForSequenceClassification", Task: transformers.SequenceClassification, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := config(c)
				if err != nil {
					return nil, err
				}
				return NewForSequenceClassification(cfg)
			}},
		},
	})
}

// config is c as a GPT-2 configuration.
func config(c transformers.Config) (*Config, error) {
	cfg, ok := c.(*Config)
	if !ok {
		return nil, fmt.Errorf("gpt2: configuration of type %T, want *gpt2.Config", c)
	}
	return cfg, nil
}

// errorf is an error of model m, named by its architecture.
func errorf(m transformers.Model, format string, args ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{m.Architecture()}, args...)...)
}
