package distilbert

import (
	"fmt"

	"github.com/goaccel/goaccel/transformers"
)

func init() {
	cfgOf := func(c transformers.Config) (*Config, error) {
		cfg, ok := c.(*Config)
		if !ok {
			return nil, fmt.Errorf("distilbert: configuration of type %T, want *distilbert.Config", c)
		}
		return cfg, nil
	}
	transformers.Register(transformers.Family{
		ModelType:       "distilbert",
		BaseModelPrefix: "distilbert",
		NewConfig:       func() transformers.Config { return NewConfig() },
		IgnoreOnLoad:    []string{"embeddings.position_ids"},
		Architectures: []transformers.Architecture{
			{Name: "DistilBertModel", Task: transformers.BaseModel, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := cfgOf(c)
				if err != nil {
					return nil, err
				}
				return NewModel(cfg)
			}},
			{Name: "DistilBertForSequenceClassification", Task: transformers.SequenceClassification, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := cfgOf(c)
				if err != nil {
					return nil, err
				}
				return NewForSequenceClassification(cfg)
			}},
			{Name: "DistilBertForTokenClassification", Task: transformers.TokenClassification, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := cfgOf(c)
				if err != nil {
					return nil, err
				}
				return NewForTokenClassification(cfg)
			}},
		},
	})
}
