package gpt2

import (
	"math"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/decoding"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// The modules of a GPT-2 block under transformers' names (GPT2Block, GPT2Attention, GPT2MLP):
// model.transformer.h[0].attn.c_attn is m.Transformer.H[0].Attn.CAttn.

// Conv1D is transformers' Conv1D, a linear layer whose weight is stored [in, out] (the
// transpose of nn.Linear's), as GPT-2's checkpoints hold it: y = x·W + b.
type Conv1D struct {
	Weight *tensors.Tensor // [in, out]
	Bias   *tensors.Tensor // [out]
}

// newConv1D is a Conv1D of in → out features with weight N(0, std²) and a zero bias.
func newConv1D(in, out int, std float64, dt tensors.DType) *Conv1D {
	l := modeling.NewLinear(out, in, std, dt) // a Linear of out → in has the weight [in, out]
	b := tensors.Zeros(out)
	if dt != tensors.Float32 {
		b = b.AsType(dt)
	}
	return &Conv1D{Weight: l.Weight, Bias: b.SetRequiresGrad(true)}
}

// Forward returns x·W + b for x [..., in] (one product reading W transposed in place).
func (c *Conv1D) Forward(x *tensors.Tensor) *tensors.Tensor {
	wt := c.Weight.T()
	y := tensors.Linear(x, wt, c.Bias)
	wt.Release()
	return y
}

// Parameters returns the weight and bias.
func (c *Conv1D) Parameters() []*tensors.Tensor { return nn.ParametersOf(c) }

// NamedParameters lists weight and bias.
func (c *Conv1D) NamedParameters() []nn.NamedParameter {
	return []nn.NamedParameter{{Name: "weight", Param: c.Weight}, {Name: "bias", Param: c.Bias}}
}

// Attention is GPT2Attention: one projection to queries, keys and values (c_attn), causal
// attention with the padding mask in the fused kernel, and the output projection (c_proj).
type Attention struct {
	CAttn, CProj *Conv1D
	Heads        int
	Scale        float64 // 0: 1/√head size
	AttnDropout  float64
	ResidDropout float64
	Layer        int // the block's number, its slot in a KV cache
}

// NamedParameters lists c_attn and c_proj.
func (a *Attention) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("c_attn", a.CAttn.NamedParameters()), modeling.Prefix("c_proj", a.CProj.NamedParameters())...)
}

// forward attends over h [B, T, C]: without a cache the fused kernel reads the heads of the
// packed projection in place; with one, the keys and values go to the cache first.
func (a *Attention) forward(h, mask *tensors.Tensor, cache *transformers.KVCache, training bool) (*tensors.Tensor, error) {
	p := 0.0
	if training {
		p = a.AttnDropout
	}
	qkv := a.CAttn.Forward(h)
	var y *tensors.Tensor
	if cache == nil {
		y = tensors.MultiHeadAttention(qkv, a.Heads, tensors.AttentionOptions{Causal: true, KeyMask: mask, Scale: a.Scale, Dropout: p})
	} else {
		b, t, c := qkv.Size(0), qkv.Size(1), qkv.Size(2)/3
		heads := func(i int) *tensors.Tensor { return qkv.Slice(2, i*c, (i+1)*c).Reshape(b, t, a.Heads, c/a.Heads) }
		keys, values, err := cache.Update(a.Layer, heads(1), heads(2))
		if err != nil {
			qkv.Release()
			return nil, err
		}
		y, err = decoding.Attention(heads(0), keys, values, decoding.AttentionOptions{KeyMask: mask, Scale: a.Scale, Dropout: p})
		if err != nil {
			qkv.Release()
			return nil, err
		}
	}
	qkv.Release()
	out := a.CProj.Forward(y)
	y.Release()
	return modeling.Dropout(out, a.ResidDropout, training), nil
}

// MLP is GPT2MLP: c_fc, the activation, c_proj and dropout.
type MLP struct {
	CFc, CProj *Conv1D
	Act        func(*tensors.Tensor) *tensors.Tensor
	Dropout    float64
}

// NamedParameters lists c_fc and c_proj.
func (m *MLP) NamedParameters() []nn.NamedParameter {
	return append(modeling.Prefix("c_fc", m.CFc.NamedParameters()), modeling.Prefix("c_proj", m.CProj.NamedParameters())...)
}

func (m *MLP) forward(x *tensors.Tensor, training bool) *tensors.Tensor {
	h := modeling.Apply(m.CFc.Forward(x), m.Act)
	y := modeling.Apply(h, m.CProj.Forward)
	return modeling.Dropout(y, m.Dropout, training)
}

// Block is GPT2Block, pre-LayerNorm: x + attn(ln_1(x)), then + mlp(ln_2(·)).
type Block struct {
	Ln1  *nn.LayerNorm
	Attn *Attention
	Ln2  *nn.LayerNorm
	MLP  *MLP
}

func newBlock(c *Config, i int, dt tensors.DType) *Block {
	std, e := c.InitializerRange, c.NEmbd
	// transformers scales the output projections' initialisation by 1/√(2·n_layer).
	projStd := std / math.Sqrt(2*float64(c.NLayer))
	act, _ := modeling.Activation("activation_function", c.ActivationFunction) // Validate checked it
	return &Block{
		Ln1: modeling.NewLayerNorm(e, c.LayerNormEpsilon, dt),
		Attn: &Attention{CAttn: newConv1D(e, 3*e, std, dt), CProj: newConv1D(e, e, projStd, dt), Heads: c.NHead,
			Scale: c.scale(i), AttnDropout: c.AttnPdrop, ResidDropout: c.ResidPdrop, Layer: i},
		Ln2: modeling.NewLayerNorm(e, c.LayerNormEpsilon, dt),
		MLP: &MLP{CFc: newConv1D(e, c.inner(), std, dt), CProj: newConv1D(c.inner(), e, projStd, dt), Act: act, Dropout: c.ResidPdrop},
	}
}

// NamedParameters lists ln_1, attn, ln_2 and mlp.
func (b *Block) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("ln_1", b.Ln1.NamedParameters())
	ps = append(ps, modeling.Prefix("attn", b.Attn.NamedParameters())...)
	ps = append(ps, modeling.Prefix("ln_2", b.Ln2.NamedParameters())...)
	return append(ps, modeling.Prefix("mlp", b.MLP.NamedParameters())...)
}

// forward applies the block to x [B, T, C].
func (b *Block) forward(x, mask *tensors.Tensor, cache *transformers.KVCache, training bool) (*tensors.Tensor, error) {
	h := b.Ln1.Forward(x)
	a, err := b.Attn.forward(h, mask, cache, training)
	h.Release()
	if err != nil {
		return nil, err
	}
	x1 := a.Add(x)
	a.Release()
	h2 := b.Ln2.Forward(x1)
	m := b.MLP.forward(h2, training)
	h2.Release()
	out := x1.Add(m)
	x1.Release()
	m.Release()
	return out, nil
}
