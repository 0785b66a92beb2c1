package bert

import (
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// The modules of a BERT encoder under transformers' names (BertEmbeddings, BertSelfAttention, …):
// each field is the submodule of the same name, so model.bert.encoder.layer[0].attention.self.query
// is m.Bert.Encoder.Layer[0].Attention.Self.Query, and state dicts use transformers' keys.

// Embeddings sums the word, position and token type embeddings, then LayerNorm and dropout.
type Embeddings struct {
	WordEmbeddings      *nn.Embedding
	PositionEmbeddings  *nn.Embedding
	TokenTypeEmbeddings *nn.Embedding // nil for families without token types
	LayerNorm           *nn.LayerNorm
	Dropout             float64
	// PaddingIdx and PositionsFromIDs give RoBERTa's positions: when PositionsFromIDs is set and
	// no position ids are given, the real tokens count from PaddingIdx+1 and pads keep
	// PaddingIdx (transformers' create_position_ids_from_input_ids); else positions are 0 … T-1.
	PaddingIdx       int
	PositionsFromIDs bool
}

func newEmbeddings(c *Config, dt tensors.DType) *Embeddings {
	std := c.InitializerRange
	e := &Embeddings{
		WordEmbeddings:     modeling.NewEmbedding(c.VocabSize, c.HiddenSize, std, c.padIdx(), dt),
		PositionEmbeddings: modeling.NewEmbedding(c.MaxPositionEmbeddings, c.HiddenSize, std, -1, dt),
		LayerNorm:          modeling.NewLayerNorm(c.HiddenSize, c.LayerNormEps, dt),
		Dropout:            c.HiddenDropoutProb,
		PaddingIdx:         c.padIdx(),
	}
	e.TokenTypeEmbeddings = modeling.NewEmbedding(c.TypeVocabSize, c.HiddenSize, std, -1, dt)
	return e
}

// NamedParameters lists word_embeddings, position_embeddings, token_type_embeddings and
// LayerNorm, as BertEmbeddings registers them.
func (e *Embeddings) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("word_embeddings", e.WordEmbeddings.NamedParameters())
	ps = append(ps, modeling.Prefix("position_embeddings", e.PositionEmbeddings.NamedParameters())...)
	if e.TokenTypeEmbeddings != nil {
		ps = append(ps, modeling.Prefix("token_type_embeddings", e.TokenTypeEmbeddings.NamedParameters())...)
	}
	return append(ps, modeling.Prefix("LayerNorm", e.LayerNorm.NamedParameters())...)
}

// forward embeds ids [B, T] with token types (nil: type 0) and positions (nil: the default).
func (e *Embeddings) forward(ids, types, pos *tensors.Tensor, training bool) *tensors.Tensor {
	b, t := ids.Size(0), ids.Size(1)
	x := e.WordEmbeddings.Forward(ids)
	if e.TokenTypeEmbeddings != nil {
		tt := types
		if tt == nil {
			tt = tensors.FromInt64(make([]int64, b*t), b, t).To(ids.Device())
		}
		te := e.TokenTypeEmbeddings.Forward(tt)
		x = modeling.Apply(x, func(x *tensors.Tensor) *tensors.Tensor { return x.Add(te) })
		te.Release()
	}
	p := pos
	if p == nil {
		if e.PositionsFromIDs {
			p = positionsFromIDs(ids, e.PaddingIdx)
		} else {
			p = modeling.Positions(t, ids.Device())
		}
	}
	pe := e.PositionEmbeddings.Forward(p)
	x = modeling.Apply(x, func(x *tensors.Tensor) *tensors.Tensor { return x.Add(pe) })
	pe.Release()
	x = modeling.Apply(x, e.LayerNorm.Forward)
	return modeling.Dropout(x, e.Dropout, training)
}

// positionsFromIDs is transformers' create_position_ids_from_input_ids: each real token's
// position is padding_idx plus its count among the row's real tokens; pads get padding_idx.
func positionsFromIDs(ids *tensors.Tensor, pad int) *tensors.Tensor {
	b, t := ids.Size(0), ids.Size(1)
	v := ids.Int64s()
	pos := make([]int64, len(v))
	for r := range b {
		n := int64(0)
		for j := range t {
			i := r*t + j
			if v[i] != int64(pad) {
				n++
				pos[i] = int64(pad) + n
			} else {
				pos[i] = int64(pad)
			}
		}
	}
	return tensors.FromInt64(pos, b, t).To(ids.Device())
}

// SelfAttention projects the queries, keys and values of every head and attends with the fused
// kernel (the padding mask inside it, dropout on the weights in training mode).
type SelfAttention struct {
	Query, Key, Value *nn.Linear
	Heads             int
	Dropout           float64
}

// NamedParameters lists query, key and value.
func (a *SelfAttention) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("query", a.Query.NamedParameters())
	ps = append(ps, modeling.Prefix("key", a.Key.NamedParameters())...)
	return append(ps, modeling.Prefix("value", a.Value.NamedParameters())...)
}

// forward attends over x [B, T, C] with the key padding mask (nil: none); the result is
// [B, T, C].
func (a *SelfAttention) forward(x, mask *tensors.Tensor, training bool) *tensors.Tensor {
	p := 0.0
	if training {
		p = a.Dropout
	}
	return modeling.SelfAttention(x, a.Query, a.Key, a.Value, a.Heads, tensors.AttentionOptions{KeyMask: mask, Dropout: p})
}

// SelfOutput is Dense, dropout, then LayerNorm of the sum with the block's input.
type SelfOutput struct {
	Dense     *nn.Linear
	LayerNorm *nn.LayerNorm
	Dropout   float64
}

// NamedParameters lists dense and LayerNorm.
func (o *SelfOutput) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("dense", o.Dense.NamedParameters()), modeling.Prefix("LayerNorm", o.LayerNorm.NamedParameters())...)
}

// forward is LayerNorm(dropout(Dense(h)) + input).
func (o *SelfOutput) forward(h, input *tensors.Tensor, training bool) *tensors.Tensor {
	y := modeling.Dropout(o.Dense.Forward(h), o.Dropout, training)
	s := y.Add(input)
	y.Release()
	return modeling.Apply(s, o.LayerNorm.Forward)
}

// Attention is self-attention then its output block (BertAttention).
type Attention struct {
	Self   *SelfAttention
	Output *SelfOutput
}

// NamedParameters lists self then output.
func (a *Attention) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("self", a.Self.NamedParameters()), modeling.Prefix("output", a.Output.NamedParameters())...)
}

// Intermediate is the feed-forward network's first half: Dense then the activation.
type Intermediate struct {
	Dense *nn.Linear
	Act   func(*tensors.Tensor) *tensors.Tensor
}

// NamedParameters lists dense.
func (m *Intermediate) NamedParameters() []nn.NamedParameter {
	return modeling.Prefix("dense", m.Dense.NamedParameters())
}

// Layer is one encoder block (BertLayer): attention, then the feed-forward network whose
// output block (BertOutput) is SelfOutput's shape.
type Layer struct {
	Attention    *Attention
	Intermediate *Intermediate
	Output       *SelfOutput
}

func newLayer(c *Config, dt tensors.DType) *Layer {
	std, h := c.InitializerRange, c.HiddenSize
	act, _ := modeling.Activation("hidden_act", c.HiddenAct) // Validate checked it
	return &Layer{
		Attention: &Attention{
			Self: &SelfAttention{Query: modeling.NewLinear(h, h, std, dt), Key: modeling.NewLinear(h, h, std, dt), Value: modeling.NewLinear(h, h, std, dt),
				Heads: c.NumAttentionHeads, Dropout: c.AttentionProbsDropoutProb},
			Output: &SelfOutput{Dense: modeling.NewLinear(h, h, std, dt), LayerNorm: modeling.NewLayerNorm(h, c.LayerNormEps, dt), Dropout: c.HiddenDropoutProb},
		},
		Intermediate: &Intermediate{Dense: modeling.NewLinear(h, c.IntermediateSize, std, dt), Act: act},
		Output:       &SelfOutput{Dense: modeling.NewLinear(c.IntermediateSize, h, std, dt), LayerNorm: modeling.NewLayerNorm(h, c.LayerNormEps, dt), Dropout: c.HiddenDropoutProb},
	}
}

// NamedParameters lists attention, intermediate and output.
func (l *Layer) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("attention", l.Attention.NamedParameters())
	ps = append(ps, modeling.Prefix("intermediate", l.Intermediate.NamedParameters())...)
	return append(ps, modeling.Prefix("output", l.Output.NamedParameters())...)
}

// forward applies the block to x [B, T, C].
func (l *Layer) forward(x, mask *tensors.Tensor, training bool) *tensors.Tensor {
	a := l.Attention.Self.forward(x, mask, training)
	h := l.Attention.Output.forward(a, x, training)
	a.Release()
	i := l.Intermediate.Dense.Forward(h)
	i = modeling.Apply(i, l.Intermediate.Act)
	out := l.Output.forward(i, h, training)
	i.Release()
	h.Release()
	return out
}

// Encoder is the stack of layers (BertEncoder).
type Encoder struct {
	Layer []*Layer
}

// NamedParameters lists layer.0, layer.1, ….
func (e *Encoder) NamedParameters() []nn.NamedParameter {
	var ps []nn.NamedParameter
	for i, l := range e.Layer {
		ps = append(ps, modeling.Prefix("layer."+itoa(i), l.NamedParameters())...)
	}
	return ps
}

// Forward runs the layers over the embeddings x [B, T, C] with the key padding mask (nil:
// none) and returns the last layer's output; with all set, also x and every layer's output
// (the hidden states), which it then keeps. In training mode, dropout is active.
func (e *Encoder) Forward(x, mask *tensors.Tensor, training, all bool) (*tensors.Tensor, []*tensors.Tensor) {
	var hidden []*tensors.Tensor
	if all {
		hidden = append(hidden, x)
	}
	for _, l := range e.Layer {
		y := l.forward(x, mask, training)
		if all {
			hidden = append(hidden, y)
		} else {
			x.Release()
		}
		x = y
	}
	return x, hidden
}

// Pooler is Dense then tanh of the first token (BertPooler).
type Pooler struct {
	Dense *nn.Linear
}

// NamedParameters lists dense.
func (p *Pooler) NamedParameters() []nn.NamedParameter {
	return modeling.Prefix("dense", p.Dense.NamedParameters())
}

// forward pools h [B, T, C] into [B, C].
func (p *Pooler) forward(h *tensors.Tensor) *tensors.Tensor {
	first := h.Slice(1, 0, 1).Reshape(h.Size(0), h.Size(2))
	y := p.Dense.Forward(first)
	first.Release()
	return modeling.Apply(y, (*tensors.Tensor).Tanh)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
