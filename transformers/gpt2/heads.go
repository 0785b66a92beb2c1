package gpt2

import (
	"fmt"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/decoding"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// LMHeadModel is GPT2LMHeadModel: the model and a language modelling head whose weight is the
// token embedding's (tied: one parameter, saved once as transformer.wte.weight). Run returns
// the next-token logits [B, T, vocab] (the last LogitsToKeep positions when set) and, with
// Labels (the input ids, -100 where no loss is wanted), the mean cross entropy of each
// position's logits against the next label. It implements transformers.GenerativeModel:
// transformers.Generate (or Generate) continues prompts with it.
type LMHeadModel struct {
	Config      *Config
	Transformer *Model
	LMHead      *nn.Linear // Weight is Transformer.Wte.Weight
}

// NewLMHeadModel returns the model with fresh weights.
func NewLMHeadModel(cfg *Config) (*LMHeadModel, error) {
	body, err := NewModel(cfg)
	if err != nil {
		return nil, err
	}
	return &LMHeadModel{Config: cfg, Transformer: body, LMHead: &nn.Linear{Weight: body.Wte.Weight}}, nil
}

// NamedParameters lists transformer.* then lm_head.weight (the token embedding again).
func (m *LMHeadModel) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("transformer", m.Transformer.NamedParameters()), modeling.Prefix("lm_head", m.LMHead.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters, the tied weight once.
func (m *LMHeadModel) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model.
func (m *LMHeadModel) Train(on bool) { m.Transformer.Train(on) }

// Training reports the mode.
func (m *LMHeadModel) Training() bool { return m.Transformer.Training() }

// PretrainedConfig implements transformers.Model.
func (m *LMHeadModel) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *LMHeadModel) Architecture() string { return "GPT2LMHeadModel" }

// NewKVCache implements transformers.GenerativeModel.
func (m *LMHeadModel) NewKVCache(batch, capacity int) *transformers.KVCache {
	return m.Transformer.NewKVCache(batch, capacity)
}

// GenerationConfig implements transformers.GenerativeModel: bos_token_id, eos_token_id,
// pad_token_id and n_positions.
func (m *LMHeadModel) GenerationConfig() transformers.GenerationConfig {
	return m.Config.generationConfig()
}

// Run implements transformers.Model.
func (m *LMHeadModel) Run(in transformers.Inputs) (out transformers.Output, err error) {
	if err := modeling.CheckInputs(in, m.Transformer.limits(m.Architecture())); err != nil {
		return out, err
	}
	if in.Labels != nil && in.LogitsToKeep != 0 {
		return out, errorf(m, "Inputs.Labels need the logits of every position: leave LogitsToKeep at 0")
	}
	defer modeling.Guard(m.Architecture(), &err)
	if out.LastHiddenState, out.HiddenStates, err = m.Transformer.forward(in); err != nil {
		return out, fmt.Errorf("%s: %w", m.Architecture(), err)
	}
	out.Logits = m.LMHead.Forward(decoding.KeepLast(out.LastHiddenState, in.LogitsToKeep))
	return modeling.WithLoss(m.Architecture(), out, in.Labels, decoding.CausalLMLoss)
}

// Forward returns the logits of ids [B, T] with every token attended.
func (m *LMHeadModel) Forward(ids *tensors.Tensor) *tensors.Tensor {
	return must(m.Run(transformers.Inputs{InputIDs: ids})).Logits
}

// Generate continues the prompts in.InputIDs: transformers.Generate(m, in, opts).
func (m *LMHeadModel) Generate(in transformers.Inputs, opts transformers.GenerateOptions) (transformers.GenerateOutput, error) {
	return transformers.Generate(m, in, opts)
}

// ForSequenceClassification is GPT2ForSequenceClassification: a Linear score without bias on
// the last hidden state of each row's last token that is not padding (found from pad_token_id,
// as transformers finds it, so left and right padding both work). With Labels, Run computes the
// loss of the configuration's problem type.
type ForSequenceClassification struct {
	Config      *Config
	Transformer *Model
	Score       *nn.Linear
}

// NewForSequenceClassification returns the model with fresh weights for cfg.NumLabels() classes.
func NewForSequenceClassification(cfg *Config) (*ForSequenceClassification, error) {
	body, err := NewModel(cfg)
	if err != nil {
		return nil, err
	}
	dt, _ := cfg.dtype()
	score := modeling.NewLinear(cfg.NEmbd, cfg.NumLabels(), cfg.InitializerRange, dt)
	score.Bias = nil
	return &ForSequenceClassification{Config: cfg, Transformer: body, Score: score}, nil
}

// NamedParameters lists transformer.* then score.weight.
func (m *ForSequenceClassification) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("transformer", m.Transformer.NamedParameters()), modeling.Prefix("score", m.Score.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *ForSequenceClassification) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model.
func (m *ForSequenceClassification) Train(on bool) { m.Transformer.Train(on) }

// Training reports the mode.
func (m *ForSequenceClassification) Training() bool { return m.Transformer.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForSequenceClassification) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForSequenceClassification) Architecture() string { return "GPT2ForSequenceClassification" }

// Run implements transformers.Model: Logits [B, NumLabels], and Loss with Labels.
func (m *ForSequenceClassification) Run(in transformers.Inputs) (out transformers.Output, err error) {
	if err := modeling.CheckInputs(in, m.Transformer.limits(m.Architecture())); err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	last, err := decoding.LastTokens(in.InputIDs, m.Config.PadTokenID)
	if err != nil {
		return out, errorf(m, "%v", err)
	}
	if out.LastHiddenState, out.HiddenStates, err = m.Transformer.forward(in); err != nil {
		return out, fmt.Errorf("%s: %w", m.Architecture(), err)
	}
	pooled := decoding.PoolLast(out.LastHiddenState, last)
	out.Logits = m.Score.Forward(pooled)
	pooled.Release()
	return modeling.WithLoss(m.Architecture(), out, in.Labels, func(logits, labels *tensors.Tensor) (*tensors.Tensor, error) {
		return modeling.SequenceClassificationLoss(&m.Config.BaseConfig, logits, labels)
	})
}

// Forward returns the logits of ids [B, T] with every token attended.
func (m *ForSequenceClassification) Forward(ids *tensors.Tensor) *tensors.Tensor {
	return must(m.Run(transformers.Inputs{InputIDs: ids})).Logits
}
