package llama

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/decoding"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// Model is LlamaModel (MistralModel for a Mistral configuration): the token embedding, the
// decoder layers and the final RMSNorm; positions enter through rotary embeddings. Run returns
// the last hidden state [B, T, hidden_size] (and, with OutputHiddenStates, the input of every
// layer then the last hidden state); Forward(ids) returns the last hidden state.
type Model struct {
	Config      *Config
	EmbedTokens *nn.Embedding
	Layers      []*DecoderLayer
	Norm        *nn.RMSNorm
	invFreq     []float32 // the rotary embedding's inverse frequencies
	training    bool
}

// NewModel returns LlamaModel with fresh weights (normal(0, initializer_range), the padding
// token's embedding zero, as transformers initialises them, from the tensors package's
// generator) in the configuration's dtype. It returns an error for a configuration Validate
// refuses.
func NewModel(cfg *Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("llama: %w", err)
	}
	dt, err := cfg.dtype()
	if err != nil {
		return nil, fmt.Errorf("llama: %w", err)
	}
	r, _ := cfg.rope() // Validate checked it
	m := &Model{Config: cfg, EmbedTokens: modeling.NewEmbedding(cfg.VocabSize, cfg.HiddenSize, cfg.InitializerRange, cfg.padIdx(), dt),
		Norm: newRMSNorm(cfg, dt), invFreq: r.invFreq(cfg.headDim()), training: true}
	for i := range cfg.NumHiddenLayers {
		m.Layers = append(m.Layers, newDecoderLayer(cfg, i, dt))
	}
	return m, nil
}

// NamedParameters lists embed_tokens, layers.N.*, norm: transformers' names.
func (m *Model) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("embed_tokens", m.EmbedTokens.NamedParameters())
	for i, l := range m.Layers {
		ps = append(ps, modeling.Prefix(fmt.Sprintf("layers.%d", i), l.NamedParameters())...)
	}
	return append(ps, modeling.Prefix("norm", m.Norm.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *Model) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train switches dropout on (training) or off (evaluation), model.train() / model.eval().
func (m *Model) Train(on bool) { m.training = on }

// Training reports the mode.
func (m *Model) Training() bool { return m.training }

// PretrainedConfig implements transformers.Model.
func (m *Model) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model: "LlamaModel" or "MistralModel".
func (m *Model) Architecture() string { return m.Config.prefix() + "Model" }

// NewKVCache returns an empty cache for the model's layers, batch rows of up to capacity tokens.
func (m *Model) NewKVCache(batch, capacity int) *transformers.KVCache {
	return transformers.NewKVCache(len(m.Layers), batch, capacity)
}

// limits are what Run accepts, for the architecture name. Rotary positions have no table: as
// in transformers, a sequence may run past max_position_embeddings.
func (m *Model) limits(name string) modeling.Limits {
	return modeling.Limits{Model: name, MaxLength: math.MaxInt32, Decoder: true}
}

// Run implements transformers.Model. Positions default to 0 … T−1 after the cached tokens
// (transformers' LlamaModel does not derive them from the attention mask; Generate does).
func (m *Model) Run(in transformers.Inputs) (out transformers.Output, err error) {
	if err := modeling.CheckInputs(in, m.limits(m.Architecture())); err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	if out.LastHiddenState, out.HiddenStates, err = m.forward(in); err != nil {
		return out, fmt.Errorf("%s: %w", m.Architecture(), err)
	}
	return out, nil
}

// forward runs the model on checked inputs.
func (m *Model) forward(in transformers.Inputs) (*tensors.Tensor, []*tensors.Tensor, error) {
	ids := in.InputIDs
	past := 0
	if in.PastKeyValues != nil {
		past = in.PastKeyValues.Len()
	}
	pos := in.PositionIDs
	if pos == nil {
		pos = decoding.Positions(ids.Size(1), past, ids.Device())
	}
	rot := newRotary(pos, m.invFreq)
	defer rot.release()
	x := decoding.Embed(m.EmbedTokens, ids, m.Config.padIdx())
	var hidden []*tensors.Tensor
	for _, l := range m.Layers {
		if in.OutputHiddenStates {
			hidden = append(hidden, x)
		}
		y, err := l.forward(x, in.AttentionMask, rot, in.PastKeyValues, m.training)
		if err != nil {
			return nil, nil, err
		}
		if !in.OutputHiddenStates {
			x.Release()
		}
		x = y
	}
	h := m.Norm.Forward(x)
	x.Release()
	if in.OutputHiddenStates {
		hidden = append(hidden, h)
	}
	return h, hidden, nil
}

// Forward returns the last hidden state of ids [B, T] with every token attended; it panics
// where Run returns an error.
func (m *Model) Forward(ids *tensors.Tensor) *tensors.Tensor {
	return must(m.Run(transformers.Inputs{InputIDs: ids})).LastHiddenState
}

func must(out transformers.Output, err error) transformers.Output {
	if err != nil {
		panic("llama: " + err.Error())
	}
	return out
}
