package nn

import (
	"fmt"
	"math"
	"strings"

	"github.com/goaccel/goaccel/tensors"
)

// GPTConfig sizes a GPT (nanoGPT's GPTConfig).
type GPTConfig struct {
	VocabSize int     // tokens
	BlockSize int     // longest context
	Layers    int     // transformer blocks
	Heads     int     // attention heads per block
	Embed     int     // features (a multiple of Heads)
	Dropout   float64 // on embeddings, attention weights and residual branches, in training mode
	Bias      bool    // biases in the Linear and LayerNorm layers
}

// GPT is a decoder-only transformer language model, nanoGPT's GPT: token and position
// embeddings, Layers pre-norm blocks, a final LayerNorm and an output layer whose weight is the
// token embedding's (weight tying: one parameter used twice; its gradient sums both uses, and
// state dicts and optimizers list it once, as transformer.wte.weight).
type GPT struct {
	mode
	Config            GPTConfig
	TokenEmbedding    *Embedding
	PositionEmbedding *Embedding
	Blocks            []*TransformerBlock
	LNF               *LayerNorm
	Head              *Linear
	// GradientCheckpointing recomputes each block's activations in the backward pass instead
	// of keeping them (tensors.Checkpoint): SetGradientCheckpointing.
	GradientCheckpointing bool
}

// SetGradientCheckpointing switches activation checkpointing of the blocks on or off
// (transformers' gradient_checkpointing_enable).
func (g *GPT) SetGradientCheckpointing(on bool) { g.GradientCheckpointing = on }

// NewGPT returns a GPT initialised as nanoGPT does: weights N(0, 0.02) (the residual
// projections N(0, 0.02/√(2·Layers))), biases 0, LayerNorms 1 and 0, from the tensors package's
// process-wide generator.
func NewGPT(cfg GPTConfig) *GPT {
	if cfg.VocabSize <= 0 || cfg.BlockSize <= 0 || cfg.Layers <= 0 || cfg.Heads <= 0 || cfg.Embed <= 0 || cfg.Embed%cfg.Heads != 0 {
		panic(fmt.Sprintf("nn: NewGPT: sizes must be positive and Embed a multiple of Heads, have %+v", cfg))
	}
	checkDropout("NewGPT", cfg.Dropout)
	g := &GPT{Config: cfg, TokenEmbedding: NewEmbedding(cfg.VocabSize, cfg.Embed), PositionEmbedding: NewEmbedding(cfg.BlockSize, cfg.Embed),
		LNF: newLayerNorm(cfg.Embed, cfg.Bias)}
	for range cfg.Layers {
		g.Blocks = append(g.Blocks, NewTransformerBlock(cfg.Embed, cfg.Heads, cfg.Bias, cfg.Dropout))
	}
	g.Head = &Linear{Weight: g.TokenEmbedding.Weight}
	tensors.NoGrad(func() {
		for _, p := range g.NamedParameters() {
			w, std := p.Param, 0.02
			switch {
			case p.Param.Dim() == 1:
				continue // LayerNorm weights stay 1; biases are set to 0 below
			case strings.HasSuffix(p.Name, "c_proj.weight"):
				std = 0.02 / math.Sqrt(2*float64(cfg.Layers))
			}
			r := tensors.Randn(w.Shape()...)
			w.CopyFrom(r.MulScalar(std))
			r.Release()
		}
		for _, b := range g.Blocks {
			for _, l := range []*Linear{b.Attn.QKV, b.Attn.Proj, b.MLP.FC, b.MLP.Proj} {
				if l.Bias != nil {
					l.Bias.Fill(0)
				}
			}
		}
	})
	return g
}

// Forward maps token indices idx [B, T] (int64, T ≤ BlockSize) to logits [B, T, VocabSize].
func (g *GPT) Forward(idx *tensors.Tensor) *tensors.Tensor {
	if idx.Dim() != 2 || idx.DType() != tensors.Int64 {
		panic(fmt.Sprintf("nn: GPT: input must be int64 token indices [B, T], have %s %v", idx.DType(), idx.Shape()))
	}
	t := idx.Size(1)
	if t > g.Config.BlockSize {
		panic(fmt.Sprintf("nn: GPT: sequence of %d tokens is longer than the block size %d", t, g.Config.BlockSize))
	}
	pos := make([]int64, t)
	for i := range pos {
		pos[i] = int64(i)
	}
	p := tensors.FromInt64(pos, t).To(idx.Device())
	tok := g.TokenEmbedding.Forward(idx)
	pe := g.PositionEmbedding.Forward(p)
	p.Release()
	x := tok.Add(pe)
	tok.Release()
	pe.Release()
	x = dropout(x, g.Config.Dropout, g.Training())
	for _, b := range g.Blocks {
		var y *tensors.Tensor
		if g.GradientCheckpointing && g.Training() {
			y = tensors.Checkpoint(b.Forward, x, b.Parameters())
		} else {
			y = b.Forward(x)
		}
		x.Release()
		x = y
	}
	h := g.LNF.Forward(x)
	x.Release()
	logits := g.Head.Forward(h)
	h.Release()
	return logits
}

// Train sets the mode of the GPT and of every block.
func (g *GPT) Train(on bool) {
	g.mode.Train(on)
	for _, b := range g.Blocks {
		b.Train(on)
	}
}

// Parameters returns the parameters of NamedParameters, the tied weight once.
func (g *GPT) Parameters() []*tensors.Tensor { return ParametersOf(g) }

// NamedParameters returns nanoGPT's names: transformer.wte.weight, transformer.wpe.weight,
// transformer.h.N.*, transformer.ln_f.*; the output layer's weight is the token embedding's and
// is not listed again (lm_head.weight is listed only if it was untied by assigning another
// tensor to Head.Weight).
func (g *GPT) NamedParameters() []NamedParameter {
	var ps []NamedParameter
	ps = append(ps, Prefixed("transformer.wte", g.TokenEmbedding)...)
	ps = append(ps, Prefixed("transformer.wpe", g.PositionEmbedding)...)
	for i, b := range g.Blocks {
		ps = append(ps, Prefixed(fmt.Sprintf("transformer.h.%d", i), b)...)
	}
	ps = append(ps, Prefixed("transformer.ln_f", g.LNF)...)
	return uniqueParameters(append(ps, Prefixed("lm_head", g.Head)...))
}

// GenerateOptions configure GPT.Generate.
type GenerateOptions struct {
	Temperature float64            // divides the logits; 0 means 1
	TopK        int                // sample among the TopK likeliest tokens; 0 means all
	Gen         *tensors.Generator // the draws; nil means the process-wide generator
}

// Generate extends each row of idx [B, T] by n tokens sampled one at a time from the model (in
// evaluation mode, without autograd), feeding back at most the last BlockSize tokens: nanoGPT's
// generate, with TopK and Multinomial.
func (g *GPT) Generate(idx *tensors.Tensor, n int, opts GenerateOptions) *tensors.Tensor {
	temp := opts.Temperature
	if temp == 0 {
		temp = 1
	}
	if temp < 0 || opts.TopK < 0 {
		panic(fmt.Sprintf("nn: GPT.Generate: temperature %v and top-k %d must not be negative", opts.Temperature, opts.TopK))
	}
	was := g.Training()
	g.Train(false)
	defer g.Train(was)
	out := idx
	tensors.NoGrad(func() {
		for range n {
			t := out.Size(1)
			ctx := out.Slice(1, max(0, t-g.Config.BlockSize), t)
			logits := g.Forward(ctx)
			ctx.Release()
			b, tc, v := logits.Size(0), logits.Size(1), logits.Size(2)
			s := logits.Slice(1, tc-1, tc)
			r := s.Reshape(b, v)
			last := r.DivScalar(temp)
			for _, x := range []*tensors.Tensor{s, r, logits} {
				x.Release()
			}
			if k := opts.TopK; k > 0 && k < v {
				top, _ := last.TopK(k, 1, true)
				kth := top.Slice(1, k-1, k)
				low := last.Lt(kth)
				masked := last.MaskedFill(low, math.Inf(-1))
				for _, x := range []*tensors.Tensor{top, kth, low, last} {
					x.Release()
				}
				last = masked
			}
			probs := last.Softmax(1)
			last.Release()
			next := tensors.Multinomial(probs, 1, true, opts.Gen)
			probs.Release()
			grown := tensors.Cat([]*tensors.Tensor{out, next}, 1)
			next.Release()
			if out != idx {
				out.Release()
			}
			out = grown
		}
	})
	return out
}
