package bert

import (
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// ForSequenceClassification is BertForSequenceClassification: the pooled first token, dropout
// and a Linear classifier to NumLabels scores. With Inputs.Labels, Run computes the loss of the
// configuration's problem type (regression for one label, cross entropy for int64 class ids,
// binary cross entropy for float multi-label targets).
type ForSequenceClassification struct {
	Config     *Config
	Bert       *Model
	Classifier *nn.Linear
	Dropout    float64
}

// NewForSequenceClassification returns the model with fresh weights for cfg.NumLabels() classes.
func NewForSequenceClassification(cfg *Config) (*ForSequenceClassification, error) {
	body, err := NewModel(cfg, true)
	if err != nil {
		return nil, err
	}
	dt, _ := cfg.dtype()
	return &ForSequenceClassification{Config: cfg, Bert: body, Dropout: cfg.classifierDropout(),
		Classifier: modeling.NewLinear(cfg.HiddenSize, cfg.NumLabels(), cfg.InitializerRange, dt)}, nil
}

// NamedParameters lists bert.* then classifier.*.
func (m *ForSequenceClassification) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("bert", m.Bert.NamedParameters()), modeling.Prefix("classifier", m.Classifier.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *ForSequenceClassification) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model and its body.
func (m *ForSequenceClassification) Train(on bool) { m.Bert.Train(on) }

// Training reports the mode.
func (m *ForSequenceClassification) Training() bool { return m.Bert.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForSequenceClassification) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForSequenceClassification) Architecture() string { return "BertForSequenceClassification" }

// Run implements transformers.Model: Logits [B, NumLabels], and Loss with Labels.
func (m *ForSequenceClassification) Run(in transformers.Inputs) (out transformers.Output, err error) {
	out, err = m.Bert.Run(in)
	if err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	pooled := modeling.Dropout(out.PoolerOutput, m.Dropout, m.Training())
	out.Logits = m.Classifier.Forward(pooled)
	if pooled != out.PoolerOutput {
		pooled.Release()
	}
	return modeling.WithLoss(m.Architecture(), out, in.Labels, func(logits, labels *tensors.Tensor) (*tensors.Tensor, error) {
		return modeling.SequenceClassificationLoss(&m.Config.BaseConfig, logits, labels)
	})
}

// Forward returns the logits of ids [B, T] with every token attended.
func (m *ForSequenceClassification) Forward(ids *tensors.Tensor) *tensors.Tensor {
	return must(m.Run(transformers.Inputs{InputIDs: ids})).Logits
}

// ForTokenClassification is BertForTokenClassification: dropout and a Linear classifier on
// every token's last hidden state (no pooler); with Labels [B, T] (-100 ignored), the mean
// cross entropy.
type ForTokenClassification struct {
	Config     *Config
	Bert       *Model
	Classifier *nn.Linear
	Dropout    float64
}

// NewForTokenClassification returns the model with fresh weights for cfg.NumLabels() classes.
func NewForTokenClassification(cfg *Config) (*ForTokenClassification, error) {
	body, err := NewModel(cfg, false)
	if err != nil {
		return nil, err
	}
	dt, _ := cfg.dtype()
	return &ForTokenClassification{Config: cfg, Bert: body, Dropout: cfg.classifierDropout(),
		Classifier: modeling.NewLinear(cfg.HiddenSize, cfg.NumLabels(), cfg.InitializerRange, dt)}, nil
}

// NamedParameters lists bert.* then classifier.*.
func (m *ForTokenClassification) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("bert", m.Bert.NamedParameters()), modeling.Prefix("classifier", m.Classifier.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *ForTokenClassification) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model and its body.
func (m *ForTokenClassification) Train(on bool) { m.Bert.Train(on) }

// Training reports the mode.
func (m *ForTokenClassification) Training() bool { return m.Bert.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForTokenClassification) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForTokenClassification) Architecture() string { return "BertForTokenClassification" }

// Run implements transformers.Model: Logits [B, T, NumLabels], and Loss with Labels.
func (m *ForTokenClassification) Run(in transformers.Inputs) (out transformers.Output, err error) {
	out, err = m.Bert.Run(in)
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
	return must(m.Run(transformers.Inputs{InputIDs: ids})).Logits
}

// ForMaskedLM is BertForMaskedLM: the prediction head (cls.predictions: Dense, the activation,
// LayerNorm, then the decoder to the vocabulary, whose weight is the word embedding's unless
// tie_word_embeddings is false, plus its own bias) on every token; with Labels [B, T] (-100
// for unmasked tokens), the mean cross entropy.
type ForMaskedLM struct {
	Config    *Config
	Bert      *Model
	Transform *nn.Linear
	Act       func(*tensors.Tensor) *tensors.Tensor
	LayerNorm *nn.LayerNorm
	Decoder   *nn.Linear // Weight tied to Bert.Embeddings.WordEmbeddings.Weight; Bias is the head's bias
}

// NewForMaskedLM returns the model with fresh weights.
func NewForMaskedLM(cfg *Config) (*ForMaskedLM, error) {
	body, err := NewModel(cfg, false)
	if err != nil {
		return nil, err
	}
	dt, _ := cfg.dtype()
	act, _ := modeling.Activation("hidden_act", cfg.HiddenAct)
	h := cfg.HiddenSize
	dec := modeling.NewLinear(h, cfg.VocabSize, cfg.InitializerRange, dt)
	if cfg.tied() {
		dec.Weight = body.Embeddings.WordEmbeddings.Weight
	}
	return &ForMaskedLM{Config: cfg, Bert: body, Transform: modeling.NewLinear(h, h, cfg.InitializerRange, dt), Act: act,
		LayerNorm: modeling.NewLayerNorm(h, cfg.LayerNormEps, dt), Decoder: dec}, nil
}

// NamedParameters lists bert.*, then cls.predictions.bias, transform.dense.*,
// transform.LayerNorm.* and decoder.* (the tied weight and the bias again, under the names
// transformers ties them by: state dicts and optimizers list each tensor once, under its first
// name).
func (m *ForMaskedLM) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("bert", m.Bert.NamedParameters())
	ps = append(ps, nn.NamedParameter{Name: "cls.predictions.bias", Param: m.Decoder.Bias})
	ps = append(ps, modeling.Prefix("cls.predictions.transform.dense", m.Transform.NamedParameters())...)
	ps = append(ps, modeling.Prefix("cls.predictions.transform.LayerNorm", m.LayerNorm.NamedParameters())...)
	return append(ps, modeling.Prefix("cls.predictions.decoder", m.Decoder.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters, each once.
func (m *ForMaskedLM) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model and its body.
func (m *ForMaskedLM) Train(on bool) { m.Bert.Train(on) }

// Training reports the mode.
func (m *ForMaskedLM) Training() bool { return m.Bert.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForMaskedLM) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForMaskedLM) Architecture() string { return "BertForMaskedLM" }

// Run implements transformers.Model: Logits [B, T, vocab], and Loss with Labels.
func (m *ForMaskedLM) Run(in transformers.Inputs) (out transformers.Output, err error) {
	out, err = m.Bert.Run(in)
	if err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	h := m.Transform.Forward(out.LastHiddenState)
	h = modeling.Apply(h, m.Act)
	h = modeling.Apply(h, m.LayerNorm.Forward)
	out.Logits = m.Decoder.Forward(h)
	h.Release()
	return modeling.WithLoss(m.Architecture(), out, in.Labels, modeling.TokenLoss)
}

// Forward returns the logits of ids [B, T] with every token attended.
func (m *ForMaskedLM) Forward(ids *tensors.Tensor) *tensors.Tensor {
	return must(m.Run(transformers.Inputs{InputIDs: ids})).Logits
}
