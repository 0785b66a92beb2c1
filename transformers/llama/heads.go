package llama

import (
	"fmt"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/decoding"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// ForCausalLM is LlamaForCausalLM (MistralForCausalLM): the model and a language modelling head
// without bias, its weight the token embedding's when tie_word_embeddings is set (one
// parameter, saved once as model.embed_tokens.weight). Run returns the next-token logits
// [B, T, vocab] (the last LogitsToKeep positions when set) and, with Labels (the input ids,
// -100 where no loss is wanted), the mean cross entropy of each position's logits against the
// next label. It implements transformers.GenerativeModel: transformers.Generate (or Generate)
// continues prompts with it.
type ForCausalLM struct {
	Config *Config
	Model  *Model
	LMHead *nn.Linear
}

// NewForCausalLM returns the model with fresh weights.
func NewForCausalLM(cfg *Config) (*ForCausalLM, error) {
	body, err := NewModel(cfg)
	if err != nil {
		return nil, err
	}
	head := &nn.Linear{Weight: body.EmbedTokens.Weight}
	if !cfg.tied() {
		dt, _ := cfg.dtype()
		head = modeling.NewLinear(cfg.HiddenSize, cfg.VocabSize, cfg.InitializerRange, dt)
		head.Bias = nil
	}
	return &ForCausalLM{Config: cfg, Model: body, LMHead: head}, nil
}

// NamedParameters lists model.* then lm_head.weight.
func (m *ForCausalLM) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("model", m.Model.NamedParameters()), modeling.Prefix("lm_head", m.LMHead.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters, a tied weight once.
func (m *ForCausalLM) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model.
func (m *ForCausalLM) Train(on bool) { m.Model.Train(on) }

// Training reports the mode.
func (m *ForCausalLM) Training() bool { return m.Model.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForCausalLM) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model: "LlamaForCausalLM" or "MistralForCausalLM".
func (m *ForCausalLM) Architecture() string { return m.Config.prefix() + "ForCausalLM" }

// NewKVCache implements transformers.GenerativeModel.
func (m *ForCausalLM) NewKVCache(batch, capacity int) *transformers.KVCache {
	return m.Model.NewKVCache(batch, capacity)
}

// GenerationConfig implements transformers.GenerativeModel: bos_token_id, eos_token_id and
// pad_token_id.
func (m *ForCausalLM) GenerationConfig() transformers.GenerationConfig {
	return m.Config.generationConfig()
}

// Run implements transformers.Model.
func (m *ForCausalLM) Run(in transformers.Inputs) (out transformers.Output, err error) {
	if err := modeling.CheckInputs(in, m.Model.limits(m.Architecture())); err != nil {
		return out, err
	}
	if in.Labels != nil && in.LogitsToKeep != 0 {
		return out, fmt.Errorf("%s: Inputs.Labels need the logits of every position: leave LogitsToKeep at 0", m.Architecture())
	}
	defer modeling.Guard(m.Architecture(), &err)
	if out.LastHiddenState, out.HiddenStates, err = m.Model.forward(in); err != nil {
		return out, fmt.Errorf("%s: %w", m.Architecture(), err)
	}
	out.Logits = m.LMHead.Forward(decoding.KeepLast(out.LastHiddenState, in.LogitsToKeep))
	return modeling.WithLoss(m.Architecture(), out, in.Labels, decoding.CausalLMLoss)
}

// Forward returns the logits of ids [B, T] with every token attended.
func (m *ForCausalLM) Forward(ids *tensors.Tensor) *tensors.Tensor {
	return must(m.Run(transformers.Inputs{InputIDs: ids})).Logits
}

// Generate continues the prompts in.InputIDs: transformers.Generate(m, in, opts).
func (m *ForCausalLM) Generate(in transformers.Inputs, opts transformers.GenerateOptions) (transformers.GenerateOutput, error) {
	return transformers.Generate(m, in, opts)
}

// ForSequenceClassification is LlamaForSequenceClassification (MistralForSequenceClassification):
// a Linear score without bias on the last hidden state of each row's last token that is not
// padding (found from pad_token_id, as transformers finds it, so left and right padding both
// work). With Labels, Run computes the loss of the configuration's problem type.
type ForSequenceClassification struct {
	Config *Config
	Model  *Model
	Score  *nn.Linear
}

// NewForSequenceClassification returns the model with fresh weights for cfg.NumLabels() classes.
func NewForSequenceClassification(cfg *Config) (*ForSequenceClassification, error) {
	body, err := NewModel(cfg)
	if err != nil {
		return nil, err
	}
	dt, _ := cfg.dtype()
	score := modeling.NewLinear(cfg.HiddenSize, cfg.NumLabels(), cfg.InitializerRange, dt)
	score.Bias = nil
	return &ForSequenceClassification{Config: cfg, Model: body, Score: score}, nil
}

// NamedParameters lists model.* then score.weight.
func (m *ForSequenceClassification) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("model", m.Model.NamedParameters()), modeling.Prefix("score", m.Score.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *ForSequenceClassification) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train sets the mode of the model.
func (m *ForSequenceClassification) Train(on bool) { m.Model.Train(on) }

// Training reports the mode.
func (m *ForSequenceClassification) Training() bool { return m.Model.Training() }

// PretrainedConfig implements transformers.Model.
func (m *ForSequenceClassification) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *ForSequenceClassification) Architecture() string {
	return m.Config.prefix() + "ForSequenceClassification"
}

// Run implements transformers.Model: Logits [B, NumLabels], and Loss with Labels.
func (m *ForSequenceClassification) Run(in transformers.Inputs) (out transformers.Output, err error) {
	if err := modeling.CheckInputs(in, m.Model.limits(m.Architecture())); err != nil {
		return out, err
	}
	last, err := decoding.LastTokens(in.InputIDs, m.Config.PadTokenID)
	if err != nil {
		return out, fmt.Errorf("%s: %w", m.Architecture(), err)
	}
	defer modeling.Guard(m.Architecture(), &err)
	if out.LastHiddenState, out.HiddenStates, err = m.Model.forward(in); err != nil {
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
