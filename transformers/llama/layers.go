package llama

import (
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
	"github.com/goaccel/goaccel/transformers"
	"github.com/goaccel/goaccel/transformers/internal/decoding"
	"github.com/goaccel/goaccel/transformers/internal/modeling"
)

// The modules of a Llama decoder layer under transformers' names (LlamaDecoderLayer,
// LlamaAttention, LlamaMLP): model.model.layers[0].self_attn.q_proj is
// m.Model.Layers[0].SelfAttn.QProj.

// Attention is LlamaAttention: query, key and value projections (fewer key/value heads than
// query heads for grouped-query attention), rotary embeddings on the queries and keys, causal
// attention with the padding mask in the fused kernel (over a KV cache when given), and the
// output projection.
type Attention struct {
	QProj, KProj, VProj, OProj *nn.Linear
	Heads, KVHeads, HeadDim    int
	Dropout                    float64
	Window                     int // Mistral's sliding window; 0 for none
	Layer                      int // the layer's number, its slot in a KV cache
}

func newAttention(c *Config, i int, dt tensors.DType) *Attention {
	std, h, d := c.InitializerRange, c.HiddenSize, c.headDim()
	lin := func(in, out int) *nn.Linear {
		l := modeling.NewLinear(in, out, std, dt)
		if !c.attentionBias() {
			l.Bias = nil
		}
		return l
	}
	return &Attention{QProj: lin(h, c.NumAttentionHeads*d), KProj: lin(h, c.kvHeads()*d), VProj: lin(h, c.kvHeads()*d),
		OProj: lin(c.NumAttentionHeads*d, h), Heads: c.NumAttentionHeads, KVHeads: c.kvHeads(), HeadDim: d,
		Dropout: c.AttentionDropout, Window: c.window(), Layer: i}
}

// NamedParameters lists q_proj, k_proj, v_proj and o_proj.
func (a *Attention) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("q_proj", a.QProj.NamedParameters())
	ps = append(ps, modeling.Prefix("k_proj", a.KProj.NamedParameters())...)
	ps = append(ps, modeling.Prefix("v_proj", a.VProj.NamedParameters())...)
	return append(ps, modeling.Prefix("o_proj", a.OProj.NamedParameters())...)
}

// forward attends over h [B, T, C] with the rotation rot of the tokens' positions.
func (a *Attention) forward(h, mask *tensors.Tensor, rot rotary, cache *transformers.KVCache, training bool) (*tensors.Tensor, error) {
	b, t := h.Size(0), h.Size(1)
	project := func(l *nn.Linear, heads int) *tensors.Tensor {
		return modeling.Apply(l.Forward(h), func(y *tensors.Tensor) *tensors.Tensor { return y.Reshape(b, t, heads, a.HeadDim) })
	}
	q := modeling.Apply(project(a.QProj, a.Heads), rot.apply)
	k := modeling.Apply(project(a.KProj, a.KVHeads), rot.apply)
	v := project(a.VProj, a.KVHeads)
	keys, values := k, v
	if cache != nil {
		var err error
		if keys, values, err = cache.Update(a.Layer, k, v); err != nil {
			return nil, err
		}
	}
	p := 0.0
	if training {
		p = a.Dropout
	}
	y, err := decoding.Attention(q, keys, values, decoding.AttentionOptions{KeyMask: mask, Dropout: p, Window: a.Window})
	q.Release()
	k.Release()
	v.Release()
	if err != nil {
		return nil, err
	}
	return modeling.Apply(y, a.OProj.Forward), nil
}

// MLP is LlamaMLP, SwiGLU: down_proj(act(gate_proj(x)) · up_proj(x)).
type MLP struct {
	GateProj, UpProj, DownProj *nn.Linear
	Act                        func(*tensors.Tensor) *tensors.Tensor
}

func newMLP(c *Config, dt tensors.DType) *MLP {
	std := c.InitializerRange
	lin := func(in, out int) *nn.Linear {
		l := modeling.NewLinear(in, out, std, dt)
		if !c.mlpBias() {
			l.Bias = nil
		}
		return l
	}
	act, _ := modeling.Activation("hidden_act", c.HiddenAct) // Validate checked it
	return &MLP{GateProj: lin(c.HiddenSize, c.IntermediateSize), UpProj: lin(c.HiddenSize, c.IntermediateSize),
		DownProj: lin(c.IntermediateSize, c.HiddenSize), Act: act}
}

// NamedParameters lists gate_proj, up_proj and down_proj.
func (m *MLP) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("gate_proj", m.GateProj.NamedParameters())
	ps = append(ps, modeling.Prefix("up_proj", m.UpProj.NamedParameters())...)
	return append(ps, modeling.Prefix("down_proj", m.DownProj.NamedParameters())...)
}

func (m *MLP) forward(x *tensors.Tensor) *tensors.Tensor {
	g := modeling.Apply(m.GateProj.Forward(x), m.Act)
	u := m.UpProj.Forward(x)
	gu := g.Mul(u)
	g.Release()
	u.Release()
	return modeling.Apply(gu, m.DownProj.Forward)
}

// DecoderLayer is LlamaDecoderLayer, pre-norm with RMSNorm: x + self_attn(input_layernorm(x)),
// then + mlp(post_attention_layernorm(·)).
type DecoderLayer struct {
	InputLayernorm         *nn.RMSNorm
	SelfAttn               *Attention
	PostAttentionLayernorm *nn.RMSNorm
	MLP                    *MLP
}

func newDecoderLayer(c *Config, i int, dt tensors.DType) *DecoderLayer {
	return &DecoderLayer{InputLayernorm: newRMSNorm(c, dt), SelfAttn: newAttention(c, i, dt),
		PostAttentionLayernorm: newRMSNorm(c, dt), MLP: newMLP(c, dt)}
}

// newRMSNorm is an RMSNorm over hidden_size with weight 1 and rms_norm_eps.
func newRMSNorm(c *Config, dt tensors.DType) *nn.RMSNorm {
	w := tensors.Ones(c.HiddenSize)
	if dt != tensors.Float32 {
		w = w.AsType(dt)
	}
	return &nn.RMSNorm{Shape: []int{c.HiddenSize}, Eps: c.RMSNormEps, Weight: w.SetRequiresGrad(true)}
}

// NamedParameters lists input_layernorm, self_attn, post_attention_layernorm and mlp.
func (l *DecoderLayer) NamedParameters() []nn.NamedParameter {
	ps := modeling.Prefix("input_layernorm", l.InputLayernorm.NamedParameters())
	ps = append(ps, modeling.Prefix("self_attn", l.SelfAttn.NamedParameters())...)
	ps = append(ps, modeling.Prefix("post_attention_layernorm", l.PostAttentionLayernorm.NamedParameters())...)
	return append(ps, modeling.Prefix("mlp", l.MLP.NamedParameters())...)
}

// forward applies the layer to x [B, T, C].
func (l *DecoderLayer) forward(x, mask *tensors.Tensor, rot rotary, cache *transformers.KVCache, training bool) (*tensors.Tensor, error) {
	h := l.InputLayernorm.Forward(x)
	a, err := l.SelfAttn.forward(h, mask, rot, cache, training)
	h.Release()
	if err != nil {
		return nil, err
	}
	x1 := x.Add(a)
	a.Release()
	h2 := l.PostAttentionLayernorm.Forward(x1)
	m := l.MLP.forward(h2)
	h2.Release()
	out := x1.Add(m)
	x1.Release()
	m.Release()
	return out, nil
}
