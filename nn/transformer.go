package nn

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// The pieces of a GPT-2 style decoder, named as nanoGPT names them so that state dicts line up
// with its checkpoints: MLP (c_fc, c_proj), CausalSelfAttention (c_attn, c_proj) and
// TransformerBlock (ln_1, attn, ln_2, mlp). Each releases its own intermediate results as soon as
// the next op has used them (their autograd nodes keep what the backward pass needs), so a
// training step reuses the previous step's memory.

// MLP is a transformer block's feed-forward network: Linear (C → hidden), GELU, Linear
// (hidden → C), then dropout in training mode.
type MLP struct {
	mode
	FC, Proj *Linear
	Act      GELU
	Dropout  float64
}

// NewMLP returns an MLP from embed to hidden features and back, with biases when bias is set.
func NewMLP(embed, hidden int, bias bool, dropout float64) *MLP {
	checkDropout("NewMLP", dropout)
	return &MLP{FC: newLinear(embed, hidden, bias), Proj: newLinear(hidden, embed, bias), Dropout: dropout}
}

func newLinear(in, out int, bias bool) *Linear {
	if bias {
		return NewLinear(in, out)
	}
	return NewLinearNoBias(in, out)
}

func checkDropout(op string, p float64) {
	if !(p >= 0 && p < 1) {
		panic(fmt.Sprintf("nn: %s: dropout probability %v must be in [0, 1)", op, p))
	}
}

// Forward applies the network to x [..., C].
func (m *MLP) Forward(x *tensors.Tensor) *tensors.Tensor {
	h := m.FC.Forward(x)
	a := m.Act.Forward(h)
	h.Release()
	y := m.Proj.Forward(a)
	a.Release()
	return dropout(y, m.Dropout, m.Training())
}

// dropout applies tensors.Dropout in training mode, releasing its input when it made a new tensor.
func dropout(x *tensors.Tensor, p float64, training bool) *tensors.Tensor {
	if !training || p == 0 {
		return x
	}
	y := tensors.Dropout(x, p, true)
	x.Release()
	return y
}

// Parameters returns the parameters of NamedParameters.
func (m *MLP) Parameters() []*tensors.Tensor { return ParametersOf(m) }

// NamedParameters returns c_fc.* then c_proj.*.
func (m *MLP) NamedParameters() []NamedParameter {
	return append(Prefixed("c_fc", m.FC), Prefixed("c_proj", m.Proj)...)
}

// CausalSelfAttention is multi-head self-attention with a causal mask: one Linear projects
// x [B, T, C] to the queries, keys and values of every head (QKV, nanoGPT's c_attn), the fused
// tensors.MultiHeadAttention attends (dropout on the weights in training mode), and Proj mixes
// the heads back (c_proj, then dropout).
type CausalSelfAttention struct {
	mode
	Heads        int
	QKV, Proj    *Linear
	AttnDropout  float64
	ResidDropout float64
}

// NewCausalSelfAttention returns attention over embed features split into heads heads (embed
// must be a multiple of heads), with biases when bias is set and dropout on the weights and the
// output.
func NewCausalSelfAttention(embed, heads int, bias bool, dropout float64) *CausalSelfAttention {
	if heads <= 0 || embed%heads != 0 {
		panic(fmt.Sprintf("nn: NewCausalSelfAttention: embed %d is not a multiple of heads %d", embed, heads))
	}
	checkDropout("NewCausalSelfAttention", dropout)
	return &CausalSelfAttention{Heads: heads, QKV: newLinear(embed, 3*embed, bias), Proj: newLinear(embed, embed, bias),
		AttnDropout: dropout, ResidDropout: dropout}
}

// Forward attends over x [B, T, C].
func (a *CausalSelfAttention) Forward(x *tensors.Tensor) *tensors.Tensor {
	if x.Dim() != 3 {
		panic(fmt.Sprintf("nn: CausalSelfAttention: input must be [B, T, C], have %v", x.Shape()))
	}
	qkv := a.QKV.Forward(x)
	p := 0.0
	if a.Training() {
		p = a.AttnDropout
	}
	y := tensors.MultiHeadAttention(qkv, a.Heads, tensors.AttentionOptions{Causal: true, Dropout: p})
	qkv.Release()
	out := a.Proj.Forward(y)
	y.Release()
	return dropout(out, a.ResidDropout, a.Training())
}

// Parameters returns the parameters of NamedParameters.
func (a *CausalSelfAttention) Parameters() []*tensors.Tensor { return ParametersOf(a) }

// NamedParameters returns c_attn.* then c_proj.*.
func (a *CausalSelfAttention) NamedParameters() []NamedParameter {
	return append(Prefixed("c_attn", a.QKV), Prefixed("c_proj", a.Proj)...)
}

// TransformerBlock is a pre-norm GPT-2 block: x + Attn(LN1(x)), then + MLP(LN2(·)).
type TransformerBlock struct {
	LN1, LN2 *LayerNorm
	Attn     *CausalSelfAttention
	MLP      *MLP
}

// NewTransformerBlock returns a block of embed features and heads heads with a 4·embed MLP
// (biases in every Linear and LayerNorm when bias is set).
func NewTransformerBlock(embed, heads int, bias bool, dropout float64) *TransformerBlock {
	return &TransformerBlock{LN1: newLayerNorm(embed, bias), Attn: NewCausalSelfAttention(embed, heads, bias, dropout),
		LN2: newLayerNorm(embed, bias), MLP: NewMLP(embed, 4*embed, bias, dropout)}
}

func newLayerNorm(n int, bias bool) *LayerNorm {
	l := NewLayerNorm(n)
	if !bias {
		l.Bias = nil
	}
	return l
}

// Forward applies the block to x [B, T, C].
func (b *TransformerBlock) Forward(x *tensors.Tensor) *tensors.Tensor {
	h := b.LN1.Forward(x)
	a := b.Attn.Forward(h)
	h.Release()
	x1 := x.Add(a)
	a.Release()
	h = b.LN2.Forward(x1)
	m := b.MLP.Forward(h)
	h.Release()
	out := x1.Add(m)
	m.Release()
	x1.Release()
	return out
}

// Train switches the attention and the MLP to training (true) or evaluation mode.
func (b *TransformerBlock) Train(on bool) {
	b.Attn.Train(on)
	b.MLP.Train(on)
}

// Training reports the block's mode.
func (b *TransformerBlock) Training() bool { return b.Attn.Training() }

// Parameters returns the parameters of NamedParameters.
func (b *TransformerBlock) Parameters() []*tensors.Tensor { return ParametersOf(b) }

// NamedParameters returns ln_1.*, attn.*, ln_2.*, mlp.*.
func (b *TransformerBlock) NamedParameters() []NamedParameter {
	var ps []NamedParameter
	ps = append(ps, Prefixed("ln_1", b.LN1)...)
	ps = append(ps, Prefixed("attn", b.Attn)...)
	ps = append(ps, Prefixed("ln_2", b.LN2)...)
	return append(ps, Prefixed("mlp", b.MLP)...)
}
