package gpt2

import (
	"fmt"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/decoding"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// Model is GPT2Model: token and learned position embeddings, the blocks and the final
// LayerNorm. Run returns the last hidden state [B, T, n_embd] (and, with OutputHiddenStates,
// the input of every block then the last hidden state); Forward(ids) returns the last hidden
// state.
type Model struct {
	Config   *Config
	Wte, Wpe *nn.Embedding
	H        []*Block
	LnF      *nn.LayerNorm
	training bool
}

// NewModel returns GPT2Model with fresh weights (normal(0, initializer_range), the output
// projections' scaled by 1/√(2·n_layer), as transformers initialises them, from the tensors
// package's generator) in the configuration's dtype. It returns an error for a configuration
// Validate refuses.
func NewModel(cfg *Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("gpt2: %w", err)
	}
	dt, err := cfg.dtype()
	if err != nil {
		return nil, fmt.Errorf("gpt2: %w", err)
	}
	std := cfg.InitializerRange
	m := &Model{Config: cfg, Wte: modeling.NewEmbedding(cfg.VocabSize, cfg.NEmbd, std, -1, dt),
		Wpe: modeling.NewEmbedding(cfg.NPositions, cfg.NEmbd, std, -1, dt), LnF: modeling.NewLayerNorm(cfg.NEmbd, cfg.LayerNormEpsilon, dt), training: true}
	for i := range cfg.NLayer {
		m.H = append(m.H, newBlock(cfg, i, dt))
	}
	return m, nil
}

// NamedParameters lists wte, wpe, h.N.*, ln_f: transformers' names.
func (m *Model) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("wte", m.Wte.NamedParameters())
	ps = append(ps, modeling.Prefix("wpe", m.Wpe.NamedParameters())...)
	for i, b := range m.H {
		ps = append(ps, modeling.Prefix(fmt.Sprintf("h.%d", i), b.NamedParameters())...)
	}
	return append(ps, modeling.Prefix("ln_f", m.LnF.NamedParameters())...)
}

// Parameters returns the parameters of NamedParameters.
func (m *Model) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train switches dropout on (training) or off (evaluation), model.train() / model.eval().
func (m *Model) Train(on bool) { m.training = on }

// Training reports the mode.
func (m *Model) Training() bool { return m.training }

// PretrainedConfig implements transformers.Model.
func (m *Model) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *Model) Architecture() string { return "GPT2Model" }

// NewKVCache returns an empty cache for the model's blocks, batch rows of up to capacity
// tokens.
func (m *Model) NewKVCache(batch, capacity int) *transformers.KVCache {
	return transformers.NewKVCache(len(m.H), batch, capacity)
}

// limits are what Run accepts, for the architecture name.
func (m *Model) limits(name string) modeling.Limits {
	return modeling.Limits{Model: name, MaxLength: m.Config.NPositions, MaxLengthNote: fmt.Sprintf("n_positions %d", m.Config.NPositions),
		TokenTypes: true, Decoder: true}
}

// Run implements transformers.Model. Positions default to 0 … T−1 after the cached tokens
// (transformers' GPT2Model does not derive them from the attention mask; Generate does);
// token types, when given, are embedded with the token embedding, as GPT-2 does.
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
	x := m.Wte.Forward(ids)
	pe := m.Wpe.Forward(pos)
	x = modeling.Apply(x, func(x *tensors.Tensor) *tensors.Tensor { return x.Add(pe) })
	pe.Release()
	if in.TokenTypeIDs != nil {
		te := m.Wte.Forward(in.TokenTypeIDs)
		x = modeling.Apply(x, func(x *tensors.Tensor) *tensors.Tensor { return x.Add(te) })
		te.Release()
	}
	x = modeling.Dropout(x, m.Config.EmbdPdrop, m.training)
	var hidden []*tensors.Tensor
	for _, b := range m.H {
		if in.OutputHiddenStates {
			hidden = append(hidden, x)
		}
		y, err := b.forward(x, in.AttentionMask, in.PastKeyValues, m.training)
		if err != nil {
			return nil, nil, err
		}
		if !in.OutputHiddenStates {
			x.Release()
		}
		x = y
	}
	h := m.LnF.Forward(x)
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
		panic("gpt2: " + err.Error())
	}
	return out
}
