package distilbert

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// layerNormEps is DistilBERT's LayerNorm epsilon (fixed in transformers, not a config key).
const layerNormEps = 1e-12

// Embeddings are word plus position embeddings, LayerNorm and dropout (no token types).
type Embeddings struct {
	WordEmbeddings, PositionEmbeddings *nn.Embedding
	LayerNorm                          *nn.LayerNorm
	Dropout                            float64
}

// NamedParameters lists word_embeddings, position_embeddings and LayerNorm.
func (e *Embeddings) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("word_embeddings", e.WordEmbeddings.NamedParameters())
	ps = append(ps, modeling.Prefix("position_embeddings", e.PositionEmbeddings.NamedParameters())...)
	return append(ps, modeling.Prefix("LayerNorm", e.LayerNorm.NamedParameters())...)
}

// MultiHeadSelfAttention projects with q_lin, k_lin, v_lin, attends with the fused kernel and
// mixes the heads with out_lin.
type MultiHeadSelfAttention struct {
	QLin, KLin, VLin, OutLin *nn.Linear
	Heads                    int
	Dropout                  float64
}

// NamedParameters lists q_lin, k_lin, v_lin and out_lin.
func (a *MultiHeadSelfAttention) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("q_lin", a.QLin.NamedParameters())
	ps = append(ps, modeling.Prefix("k_lin", a.KLin.NamedParameters())...)
	ps = append(ps, modeling.Prefix("v_lin", a.VLin.NamedParameters())...)
	return append(ps, modeling.Prefix("out_lin", a.OutLin.NamedParameters())...)
}

func (a *MultiHeadSelfAttention) forward(x, mask *tensors.Tensor, training bool) *tensors.Tensor {
	p := 0.0
	if training {
		p = a.Dropout
	}
	y := modeling.SelfAttention(x, a.QLin, a.KLin, a.VLin, a.Heads, tensors.AttentionOptions{KeyMask: mask, Dropout: p})
	return modeling.Apply(y, a.OutLin.Forward)
}

// FFN is lin1, the activation, lin2 and dropout.
type FFN struct {
	Lin1, Lin2 *nn.Linear
	Act        func(*tensors.Tensor) *tensors.Tensor
	Dropout    float64
}

// NamedParameters lists lin1 and lin2.
func (f *FFN) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("lin1", f.Lin1.NamedParameters()), modeling.Prefix("lin2", f.Lin2.NamedParameters())...)
}

// TransformerBlock is attention, sa_layer_norm of the sum, the FFN, output_layer_norm of the sum.
type TransformerBlock struct {
	Attention       *MultiHeadSelfAttention
	SALayerNorm     *nn.LayerNorm
	FFN             *FFN
	OutputLayerNorm *nn.LayerNorm
}

// NamedParameters lists attention, sa_layer_norm, ffn and output_layer_norm.
func (l *TransformerBlock) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("attention", l.Attention.NamedParameters())
	ps = append(ps, modeling.Prefix("sa_layer_norm", l.SALayerNorm.NamedParameters())...)
	ps = append(ps, modeling.Prefix("ffn", l.FFN.NamedParameters())...)
	return append(ps, modeling.Prefix("output_layer_norm", l.OutputLayerNorm.NamedParameters())...)
}

func (l *TransformerBlock) forward(x, mask *tensors.Tensor, training bool) *tensors.Tensor {
	a := l.Attention.forward(x, mask, training)
	s := a.Add(x)
	a.Release()
	h := modeling.Apply(s, l.SALayerNorm.Forward)
	f := l.FFN.Lin1.Forward(h)
	f = modeling.Apply(f, l.FFN.Act)
	f = modeling.Apply(f, l.FFN.Lin2.Forward)
	f = modeling.Dropout(f, l.FFN.Dropout, training)
	s = f.Add(h)
	f.Release()
	h.Release()
	return modeling.Apply(s, l.OutputLayerNorm.Forward)
}

// Model is DistilBertModel: embeddings and the transformer's layers (no pooler, no token types).
type Model struct {
	Config      *Config
	Embeddings  *Embeddings
	Transformer []*TransformerBlock // transformer.layer.N
	training    bool
}

// NewModel returns DistilBertModel with fresh weights (sinusoidal position embeddings when the
// configuration asks for them).
func NewModel(cfg *Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("distilbert: %w", err)
	}
	dt := tensors.Float32
	if cfg.DType != "" {
		var err error
		if dt, err = transformers.ParseDType(cfg.DType); err != nil {
			return nil, fmt.Errorf("distilbert: %w", err)
		}
	}
	std, d := cfg.InitializerRange, cfg.Dim
	m := &Model{Config: cfg, training: true, Embeddings: &Embeddings{
		WordEmbeddings:     modeling.NewEmbedding(cfg.VocabSize, d, std, cfg.padIdx(), dt),
		PositionEmbeddings: modeling.NewEmbedding(cfg.MaxPositionEmbeddings, d, std, -1, dt),
		LayerNorm:          modeling.NewLayerNorm(d, layerNormEps, dt), Dropout: cfg.Dropout}}
	if cfg.SinusoidalPosEmbds {
		m.Embeddings.PositionEmbeddings.Weight = sinusoidal(cfg.MaxPositionEmbeddings, d).AsType(dt).SetRequiresGrad(true)
	}
	act, _ := modeling.Activation("activation", cfg.Activation)
	for range cfg.NLayers {
		m.Transformer = append(m.Transformer, &TransformerBlock{
			Attention: &MultiHeadSelfAttention{QLin: modeling.NewLinear(d, d, std, dt), KLin: modeling.NewLinear(d, d, std, dt),
				VLin: modeling.NewLinear(d, d, std, dt), OutLin: modeling.NewLinear(d, d, std, dt), Heads: cfg.NHeads, Dropout: cfg.AttentionDropout},
			SALayerNorm:     modeling.NewLayerNorm(d, layerNormEps, dt),
			FFN:             &FFN{Lin1: modeling.NewLinear(d, cfg.HiddenDim, std, dt), Lin2: modeling.NewLinear(cfg.HiddenDim, d, std, dt), Act: act, Dropout: cfg.Dropout},
			OutputLayerNorm: modeling.NewLayerNorm(d, layerNormEps, dt),
		})
	}
	return m, nil
}

// sinusoidal is transformers' create_sinusoidal_embeddings: sin on even features, cos on odd.
func sinusoidal(n, dim int) *tensors.Tensor {
	v := make([]float32, n*dim)
	for pos := range n {
		for j := range dim {
			a := float64(pos) / math.Pow(10000, float64(2*(j/2))/float64(dim))
			if j%2 == 0 {
				v[pos*dim+j] = float32(math.Sin(a))
			} else {
				v[pos*dim+j] = float32(math.Cos(a))
			}
		}
	}
	return tensors.New(v, n, dim)
}

// NamedParameters lists embeddings.* and transformer.layer.N.*.
func (m *Model) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("embeddings", m.Embeddings.NamedParameters())
	for i, l := range m.Transformer {
		ps = append(ps, modeling.Prefix(fmt.Sprintf("transformer.layer.%d", i), l.NamedParameters())...)
	}
	return ps
}

// Parameters returns the parameters of NamedParameters.
func (m *Model) Parameters() []*tensors.Tensor { return nn.ParametersOf(m) }

// Train switches dropout on or off.
func (m *Model) Train(on bool) { m.training = on }

// Training reports the mode.
func (m *Model) Training() bool { return m.training }

// PretrainedConfig implements transformers.Model.
func (m *Model) PretrainedConfig() transformers.Config { return m.Config }

// Architecture implements transformers.Model.
func (m *Model) Architecture() string { return "DistilBertModel" }

// Run implements transformers.Model: the last hidden state and, with OutputHiddenStates, every
// hidden state.
func (m *Model) Run(in transformers.Inputs) (out transformers.Output, err error) {
	lim := modeling.Limits{Model: m.Architecture(), MaxLength: m.Config.MaxPositionEmbeddings, MaxLengthNote: fmt.Sprintf("max_position_embeddings %d", m.Config.MaxPositionEmbeddings)}
	if err := modeling.CheckInputs(in, lim); err != nil {
		return out, err
	}
	defer modeling.Guard(m.Architecture(), &err)
	ids := in.InputIDs
	x := m.Embeddings.WordEmbeddings.Forward(ids)
	p := in.PositionIDs
	if p == nil {
		p = modeling.Positions(ids.Size(1), ids.Device())
	}
	pe := m.Embeddings.PositionEmbeddings.Forward(p)
	x = modeling.Apply(x, func(x *tensors.Tensor) *tensors.Tensor { return x.Add(pe) })
	pe.Release()
	x = modeling.Apply(x, m.Embeddings.LayerNorm.Forward)
	x = modeling.Dropout(x, m.Embeddings.Dropout, m.training)
	if in.OutputHiddenStates {
		out.HiddenStates = append(out.HiddenStates, x)
	}
	for _, l := range m.Transformer {
		y := l.forward(x, in.AttentionMask, m.training)
		if in.OutputHiddenStates {
			out.HiddenStates = append(out.HiddenStates, y)
		} else {
			x.Release()
		}
		x = y
	}
	out.LastHiddenState = x
	return out, nil
}

// Forward returns the last hidden state of ids [B, T] with every token attended.
func (m *Model) Forward(ids *tensors.Tensor) *tensors.Tensor {
	out, err := m.Run(transformers.Inputs{InputIDs: ids})
	if err != nil {
		panic("distilbert: " + err.Error())
	}
	return out.LastHiddenState
}
