package distilbert

import (
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// ForSequenceClassification is DistilBertForSequenceClassification: the first token through
// pre_classifier, ReLU, dropout (seq_classif_dropout) and classifier; the loss with Labels as
// BERT's.
type ForSequenceClassification struct {
	Config                    *Config
	DistilBert                *Model
	PreClassifier, Classifier *nn.Linear
}

// NewForSequenceClassification returns the model with fresh weights for cfg.NumLabels() classes.
func NewForSequenceClassification(cfg *Config) (*ForSequenceClassification, error) {
	body, err := NewModel(cfg)
	if err != nil {
		return nil, err
	}
	dt := body.Embeddings.LayerNorm.Weight.DType()
	d, std := cfg.Dim, cfg.InitializerRange
	return &ForSequenceClassification{Config: cfg, DistilBert: body,
		PreClassifier: modeling.NewLinear(d, d, std, dt), Classifier: modeling.NewLinear(d, cfg.NumLabels(), std, dt)}, nil
}

// NamedParameters lists distilbert.*, pre_classifier.* and classifier.*.
func (m *ForSequenceClassification) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("distilbert", m.DistilBert.NamedParameters())
	ps = append(ps, modeling.Prefix("pre_classifier", m.PreClassifier.NamedParameters())...)
	return append(ps, modeling.Prefix("classifier", m.Classifier.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *ForSequenceClassification) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model and its body.
func (m *ForSequenceClassification) Train(on bool) { m.DistilBert.Train(on) }

// Training reports the mode.
func (m *ForSequenceClassification) Training() bool { return m.DistilBert.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForSequenceClassification) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForSequenceClassification) Architecture() string {
	return "DistilBertForSequenceClassification"
}

// Run implements transformers.Model: Logits [B, NumLabels], and Loss with Labels.
func (m *ForSequenceClassification) Run(in transformers.Inputs) (out transformers.Output, err error) {
	out, err = m.DistilBert.Run(in)
	if err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	h := out.LastHiddenState
	first := h.Slice(1, 0, 1).Reshape(h.Size(0), h.Size(2))
	x := modeling.Apply(first, m.PreClassifier.Forward)
	x = modeling.Apply(x, (*tensors.Tensor).ReLU)
	x = modeling.Dropout(x, m.Config.SeqClassifDropout, m.Training())
	out.Logits = modeling.Apply(x, m.Classifier.Forward)
	return modeling.WithLoss(m.Architecture(), out, in.Labels, func(logits, labels *tensors.Tensor) (*tensors.Tensor, error) {
		return modeling.SequenceClassificationLoss(&m.Config.BaseConfig, logits, labels)
	})
}

// Forward returns the logits of ids [B, T] with every token attended.
func (m *ForSequenceClassification) Forward(ids *tensors.Tensor) *tensors.Tensor {
	out, err := m.Run(transformers.Inputs{InputIDs: ids})
	if err != nil {
		panic("distilbert: " + err.Error())
	}
	return out.Logits
}

// ForTokenClassification is DistilBertForTokenClassification: dropout and a Linear classifier on
// every token.
type ForTokenClassification struct {
	Config     *Config
	DistilBert *Model
	Classifier *nn.Linear
}

// NewForTokenClassification returns the model with fresh weights for cfg.NumLabels() classes.
func NewForTokenClassification(cfg *Config) (*ForTokenClassification, error) {
	body, err := NewModel(cfg)
	if err != nil {
		return nil, err
	}
	dt := body.Embeddings.LayerNorm.Weight.DType()
	return &ForTokenClassification{Config: cfg, DistilBert: body, Classifier: modeling.NewLinear(cfg.Dim, cfg.NumLabels(), cfg.InitializerRange, dt)}, nil
}

// NamedParameters lists distilbert.* and classifier.*.
func (m *ForTokenClassification) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("distilbert", m.DistilBert.NamedParameters()), modeling.Prefix("classifier", m.Classifier.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *ForTokenClassification) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model and its body.
func (m *ForTokenClassification) Train(on bool) { m.DistilBert.Train(on) }

// Training reports the mode.
func (m *ForTokenClassification) Training() bool { return m.DistilBert.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForTokenClassification) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForTokenClassification) Architecture() string { return "DistilBertForTokenClassification" }

// Run implements transformers.Model: Logits [B, T, NumLabels], and Loss with Labels.
func (m *ForTokenClassification) Run(in transformers.Inputs) (out transformers.Output, err error) {
	out, err = m.DistilBert.Run(in)
	if err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	h := modeling.Dropout(out.LastHiddenState, m.Config.Dropout, m.Training())
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
		panic("distilbert: " + err.Error())
	}
	return out.Logits
}
