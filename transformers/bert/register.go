package bert

import (
	"fmt"

	"github.com/goaccel/goaccel/transformers"
)

func init() {
	transformers.Register(transformers.Family{
		ModelType:       "bert",
		BaseModelPrefix: "bert",
		NewConfig:       func() transformers.Config { return NewConfig() },
		IgnoreOnLoad:    []string{"embeddings.position_ids", "embeddings.token_type_ids"},
		Architectures: []transformers.Architecture{
			{Name: "BertModel", Task: transformers.BaseModel, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := config(c)
				if err != nil {
					return nil, err
				}
				return NewModel(cfg, true)
			}},
			{Name: "BertForSequenceClassification", Task: transformers.SequenceClassification, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := config(c)
				if err != nil {
					return nil, err
				}
				return NewForSequenceClassification(cfg)
			}},
			{Name: "BertForTokenClassification", Task: transformers.TokenClassification, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := config(c)
				if err != nil {
					return nil, err
				}
				return NewForTokenClassification(cfg)
			}},
			{Name: "BertForMaskedLM", Task: transformers.MaskedLM, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := config(c)
				if err != nil {
					return nil, err
				}
				return NewForMaskedLM(cfg)
			}},
		},
	})
}

// config is c as a BERT configuration.
func config(c transformers.Config) (*Config, error) {
	cfg, ok := c.(*Config)
	if !ok {
		return nil, fmt.Errorf("bert: configuration of type %T, want *bert.Config", c)
	}
	return cfg, nil
}
