package bert

import (
	"fmt"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// Model is BertModel: embeddings, the encoder and (unless built without) the pooler. Run
// returns the last hidden state [B, T, hidden], the pooler output [B, hidden] and, with
// OutputHiddenStates, every hidden state; Forward(ids) returns the last hidden state.
type Model struct {
	Config     *Config
	Embeddings *Embeddings
	Encoder    *Encoder
	Pooler     *Pooler // nil inside task models that do not use it, as in transformers
	// Name is the architecture errors name: "BertModel", or the family built on BERT.
	Name string
	// LengthOffset is how many positions a family skips (RoBERTa: padding_idx+1), so the
	// longest sequence is max_position_embeddings - LengthOffset.
	LengthOffset int
	training     bool
}

// NewModel returns BertModel with fresh weights (normal(0, initializer_range), as transformers
// initialises them, from the tensors package's generator) in the configuration's dtype, with a
// pooler when pooling is set. It returns an error for a configuration Validate refuses.
func NewModel(cfg *Config, pooling bool) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("bert: %w", err)
	}
	dt, err := cfg.dtype()
	if err != nil {
		return nil, fmt.Errorf("bert: %w", err)
	}
	m := &Model{Config: cfg, Embeddings: newEmbeddings(cfg, dt), Encoder: &Encoder{}, Name: "BertModel", training: true}
	for range cfg.NumHiddenLayers {
		m.Encoder.Layer = append(m.Encoder.Layer, newLayer(cfg, dt))
	}
	if pooling {
		m.Pooler = &Pooler{Dense: modeling.NewLinear(cfg.HiddenSize, cfg.HiddenSize, cfg.InitializerRange, dt)}
	}
	return m, nil
}

// NamedParameters lists embeddings.*, encoder.layer.N.*, pooler.*: transformers' names.
func (m *Model) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("embeddings", m.Embeddings.NamedParameters())
	ps = append(ps, modeling.Prefix("encoder", m.Encoder.NamedParameters())...)
	if m.Pooler != nil {
		ps = append(ps, modeling.Prefix("pooler", m.Pooler.NamedParameters())...)
	}
	return ps
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
func (m *Model) Architecture() string { return m.Name }

// limits are what Run accepts.
func (m *Model) limits() modeling.Limits {
	note := fmt.Sprintf("max_position_embeddings %d", m.Config.MaxPositionEmbeddings)
	if m.LengthOffset > 0 {
		note = fmt.Sprintf("max_position_embeddings %d less the %d positions up to padding_idx", m.Config.MaxPositionEmbeddings, m.LengthOffset)
	}
	return modeling.Limits{Model: m.Name, MaxLength: m.Config.MaxPositionEmbeddings - m.LengthOffset, MaxLengthNote: note, TokenTypes: m.Embeddings.TokenTypeEmbeddings != nil}
}

// Run implements transformers.Model.
func (m *Model) Run(in transformers.Inputs) (out transformers.Output, err error) {
	if err := modeling.CheckInputs(in, m.limits()); err != nil {
		return out, err
	}
	defer modeling.Guard(m.Name, &err)
	out.LastHiddenState, out.HiddenStates = m.encode(in)
	if m.Pooler != nil {
		out.PoolerOutput = m.Pooler.forward(out.LastHiddenState)
	}
	return out, nil
}

// encode runs the embeddings and the encoder on checked inputs.
func (m *Model) encode(in transformers.Inputs) (*tensors.Tensor, []*tensors.Tensor) {
	x := m.Embeddings.forward(in.InputIDs, in.TokenTypeIDs, in.PositionIDs, m.training)
	return m.Encoder.Forward(x, in.AttentionMask, m.training, in.OutputHiddenStates)
}

// Forward returns the last hidden state of ids [B, T] with every token attended; it panics
// where Run returns an error.
func (m *Model) Forward(ids *tensors.Tensor) *tensors.Tensor {
	return must(m.Run(transformers.Inputs{InputIDs: ids})).LastHiddenState
}

func must(out transformers.Output, err error) transformers.Output {
	if err != nil {
		panic("bert: " + err.Error())
	}
	return out
}
