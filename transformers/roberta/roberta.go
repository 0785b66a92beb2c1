package roberta

import (
	"fmt"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/bert"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// Config is RobertaConfig: BERT's keys with RoBERTa's defaults (RoBERTa-base).
type Config struct {
	bert.Config
}

// NewConfig returns RobertaConfig() with transformers' defaults.
func NewConfig() *Config {
	c := &Config{Config: *bert.NewConfig()}
	pad := 1
	c.ModelType, c.PadTokenID, c.VocabSize = "roberta", &pad, 50265
	return c
}

// Model is RobertaModel: BERT's embeddings (positions counted from padding_idx+1, skipping pads,
// as create_position_ids_from_input_ids does), encoder and pooler under the same names.
type Model struct {
	*bert.Model
	Config *Config
}

// NewModel returns RobertaModel with fresh weights, with a pooler when pooling is set.
func NewModel(cfg *Config, pooling bool) (*Model, error) {
	body, err := bert.NewModel(&cfg.Config, pooling)
	if err != nil {
		return nil, fmt.Errorf("roberta: %w", err)
	}
	if cfg.PadTokenID == nil {
		return nil, fmt.Errorf("roberta: config key pad_token_id is null; RoBERTa's positions start past it")
	}
	body.Name = "RobertaModel"
	body.Embeddings.PositionsFromIDs = true
	body.LengthOffset = *cfg.PadTokenID + 1
	return &Model{Model: body, Config: cfg}, nil
}

// PretrainedConfig implements transformers.Model.
func (m *Model) PretrainedConfig() transformers.Config { return m.Config }

// ClassificationHead is RobertaClassificationHead: dropout, Dense, tanh, dropout, OutProj on the
// first token (<s>).
type ClassificationHead struct {
	Dense, OutProj *nn.Linear
	Dropout        float64
}

// NamedParameters lists dense and out_proj.
func (h *ClassificationHead) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("dense", h.Dense.NamedParameters()), modeling.Prefix("out_proj", h.OutProj.NamedParameters())...)
}

func (h *ClassificationHead) forward(x *tensors.Tensor, training bool) *tensors.Tensor {
	first := x.Slice(1, 0, 1).Reshape(x.Size(0), x.Size(2))
	y := modeling.Dropout(first, h.Dropout, training)
	y = modeling.Apply(y, h.Dense.Forward)
	y = modeling.Apply(y, (*tensors.Tensor).Tanh)
	y = modeling.Dropout(y, h.Dropout, training)
	return modeling.Apply(y, h.OutProj.Forward)
}

// ForSequenceClassification is RobertaForSequenceClassification: the body without a pooler and
// the classification head on the first token; the loss with Labels as BERT's.
type ForSequenceClassification struct {
	Config     *Config
	Roberta    *Model
	Classifier *ClassificationHead
}

// NewForSequenceClassification returns the model with fresh weights for cfg.NumLabels() classes.
func NewForSequenceClassification(cfg *Config) (*ForSequenceClassification, error) {
	body, err := NewModel(cfg, false)
	if err != nil {
		return nil, err
	}
	dt, _ := transformers.ParseDType(orFloat32(cfg.DType))
	h, std := cfg.HiddenSize, cfg.InitializerRange
	drop := cfg.HiddenDropoutProb
	if cfg.ClassifierDropout != nil {
		drop = *cfg.ClassifierDropout
	}
	return &ForSequenceClassification{Config: cfg, Roberta: body, Classifier: &ClassificationHead{
		Dense: modeling.NewLinear(h, h, std, dt), OutProj: modeling.NewLinear(h, cfg.NumLabels(), std, dt), Dropout: drop}}, nil
}

func orFloat32(dt string) string {
	if dt == "" {
		return "float32"
	}
	return dt
}

// NamedParameters lists roberta.* then classifier.*.
func (m *ForSequenceClassification) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("roberta", m.Roberta.NamedParameters()), modeling.Prefix("classifier", m.Classifier.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *ForSequenceClassification) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model and its body.
func (m *ForSequenceClassification) Train(on bool) { m.Roberta.Train(on) }

// Training reports the mode.
func (m *ForSequenceClassification) Training() bool { return m.Roberta.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForSequenceClassification) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForSequenceClassification) Architecture() string { return "RobertaForSequenceClassification" }

// Run implements transformers.Model: Logits [B, NumLabels], and Loss with Labels.
func (m *ForSequenceClassification) Run(in transformers.Inputs) (out transformers.Output, err error) {
	out, err = m.Roberta.Run(in)
	if err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	out.Logits = m.Classifier.forward(out.LastHiddenState, m.Training())
	return modeling.WithLoss(m.Architecture(), out, in.Labels, func(logits, labels *tensors.Tensor) (*tensors.Tensor, error) {
		return modeling.SequenceClassificationLoss(&m.Config.BaseConfig, logits, labels)
	})
}

// Forward returns the logits of ids [B, T] with every token attended.
func (m *ForSequenceClassification) Forward(ids *tensors.Tensor) *tensors.Tensor {
	out, err := m.Run(transformers.Inputs{InputIDs: ids})
	if err != nil {
		panic("roberta: " + err.Error())
	}
	return out.Logits
}

// ForTokenClassification is RobertaForTokenClassification: dropout and a Linear classifier on
// every token (no pooler).
type ForTokenClassification struct {
	Config     *Config
	Roberta    *Model
	Classifier *nn.Linear
	Dropout    float64
}

// NewForTokenClassification returns the model with fresh weights for cfg.NumLabels() classes.
func NewForTokenClassification(cfg *Config) (*ForTokenClassification, error) {
	body, err := NewModel(cfg, false)
	if err != nil {
		return nil, err
	}
	dt, _ := transformers.ParseDType(orFloat32(cfg.DType))
	drop := cfg.HiddenDropoutProb
	if cfg.ClassifierDropout != nil {
		drop = *cfg.ClassifierDropout
	}
	return &ForTokenClassification{Config: cfg, Roberta: body, Dropout: drop,
		Classifier: modeling.NewLinear(cfg.HiddenSize, cfg.NumLabels(), cfg.InitializerRange, dt)}, nil
}

// NamedParameters lists roberta.* then classifier.*.
func (m *ForTokenClassification) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("roberta", m.Roberta.NamedParameters()), modeling.Prefix("classifier", m.Classifier.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *ForTokenClassification) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model and its body.
func (m *ForTokenClassification) Train(on bool) { m.Roberta.Train(on) }

// Training reports the mode.
func (m *ForTokenClassification) Training() bool { return m.Roberta.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForTokenClassification) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForTokenClassification) Architecture() string { return "RobertaForTokenClassification" }

// Run implements transformers.Model: Logits [B, T, NumLabels], and Loss with Labels.
func (m *ForTokenClassification) Run(in transformers.Inputs) (out transformers.Output, err error) {
	out, err = m.Roberta.Run(in)
	if err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	h := modeling.Dropout(out.LastHiddenState, m.Dropout, m.Training())
	out.Logits = m.Classifier.Forward(h)
	if h != out.LastHiddenState {
		h.Release()
	}
	return modeling.WithLoss(m.Architecture(), out, in.Labels, modeling.TokenLoss)
}

// Forward returns the logits of ids [B, T] with every token attended.
func (m *ForTokenClassification) Forward(ids *tensors.Tensor) *tensors.Tensor {
	out, err := m.Run(transformers.Inputs{InputIDs: ids})
	if err != nil {
		panic("roberta: " + err.Error())
	}
	return out.Logits
}

func init() {
	cfgOf := func(c transformers.Config) (*Config, error) {
		cfg, ok := c.(*Config)
		if !ok {
			return nil, fmt.Errorf("roberta: configuration of type %T, want *roberta.Config", c)
		}
		return cfg, nil
	}
	transformers.Register(transformers.Family{
		ModelType:       "roberta",
		BaseModelPrefix: "roberta",
		NewConfig:       func() transformers.Config { return NewConfig() },
		IgnoreOnLoad:    []string{"embeddings.position_ids", "embeddings.token_type_ids"},
		Architectures: []transformers.Architecture{
			{Name: "RobertaModel", Task: transformers.BaseModel, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := cfgOf(c)
				if err != nil {
					return nil, err
				}
				return NewModel(cfg, true)
			}},
			{Name: "RobertaForSequenceClassification", Task: transformers.SequenceClassification, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := cfgOf(c)
				if err != nil {
					return nil, err
				}
				return NewForSequenceClassification(cfg)
			}},
			{Name: "RobertaForTokenClassification", Task: transformers.TokenClassification, New: func(c transformers.Config) (transformers.Model, error) {
				cfg, err := cfgOf(c)
				if err != nil {
					return nil, err
				}
				return NewForTokenClassification(cfg)
			}},
		},
	})
}
