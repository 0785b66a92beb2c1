package tensors

import (
	"fmt"
	"math"
	"slices"

	"github.com/goaccel/goaccel/tensors/backend"
)

// AttentionOptions configure ScaledDotProductAttention and MultiHeadAttention (the arguments of
// torch.nn.functional.scaled_dot_product_attention).
type AttentionOptions struct {
	// Causal lets query i see only keys j ≤ i (torch.tril(ones(Tq, Tk)) as the mask).
	Causal bool
	// Dropout is the probability of zeroing each attention weight (the others are scaled by
	// 1/(1−Dropout)); 0 in evaluation. The mask is drawn from Gen.
	Dropout float64
	// Scale multiplies the scores; 0 means 1/√D.
	Scale float64
	// Gen seeds the dropout mask; nil means the process-wide generator (ManualSeed).
	Gen *Generator
	// KeyMask, when set, is a [B, Tk] key padding mask on the operands' device (transformers'
	// attention_mask, [N, Tk] for 3-D operands): key j of batch row b is attended to only where
	// KeyMask[b, j] is non-zero, by every head and query of that row. Int64 is used as it is;
	// other types are compared with 0 first. Right padding, left padding and any other pattern
	// are all one mask (the kernels skip the keys past a row's last visible one); it combines with
	// Causal. A query that sees no key at all (a row of padding under a causal mask, or a mask of
	// zeros) gets zeros and passes no gradient back, as PyTorch's scaled_dot_product_attention
	// does.
	KeyMask *Tensor
}

// ScaledDotProductAttention returns softmax(Scale·q·kᵀ + mask)·v with dropout on the weights, as
// one fused op: q [B, H, Tq, D] (or [N, Tq, D]), k [B, H, Tk, D], v [B, H, Tk, Dv]. The weights
// are never stored: the kernel folds key blocks into a running softmax (memory linear in the
// sequence length), and the backward pass recomputes them. Heads may be views with any strides
// (a Transpose of a [B, T, H, D] projection is read in place); the result is [B, H, Tq, Dv] laid
// out as [B, Tq, H, Dv], so Transpose(1, 2) and a Reshape to [B, Tq, H·Dv] copy nothing.
func ScaledDotProductAttention(q, k, v *Tensor, opts AttentionOptions) *Tensor {
	defer opSpan("ScaledDotProductAttention", q, k, v).End()
	const op = "ScaledDotProductAttention"
	checkDevices(op, q, k, v)
	three := q.Dim() == 3
	if (q.Dim() != 4 && !three) || k.Dim() != q.Dim() || v.Dim() != q.Dim() {
		panic(fmt.Sprintf("tensors: %s: q, k and v must all be [B, H, T, D] (or [N, T, D]), have %v, %v and %v", op, q.shape, k.shape, v.shape))
	}
	q4, k4, v4 := q, k, v
	if three {
		q4, k4, v4 = q.Unsqueeze(1), k.Unsqueeze(1), v.Unsqueeze(1)
	}
	b, h, tq, d := q4.shape[0], q4.shape[1], q4.shape[2], q4.shape[3]
	tk, dv := k4.shape[2], v4.shape[3]
	if !slices.Equal(k4.shape[:2], q4.shape[:2]) || !slices.Equal(v4.shape[:2], q4.shape[:2]) || k4.shape[3] != d || v4.shape[2] != tk {
		panic(fmt.Sprintf("tensors: %s: shapes q %v, k %v, v %v do not fit (need k [B, H, Tk, D] and v [B, H, Tk, Dv] for q [B, H, Tq, D])", op, q.shape, k.shape, v.shape))
	}
	if tk == 0 || d == 0 {
		panic(fmt.Sprintf("tensors: %s: no keys or an empty head (q %v, k %v)", op, q.shape, k.shape))
	}
	p := attnParams(b, h, tq, tk, d, dv, opts)
	mask := keyMask(op, opts.KeyMask, q, b, tk)
	p.KeyMask = maskBuf(mask)
	out := attention(op, q4, k4, v4, mask, p, [4]int{b, tq, h, dv})
	releaseIfNot(mask, opts.KeyMask)
	for _, x := range []*Tensor{q4, k4, v4} {
		if three {
			x.release() // the Unsqueeze views: the attention node holds what it needs
		}
	}
	if three {
		out = handOver(out, out.Squeeze(1))
	}
	return out
}

// MultiHeadAttention is the attention of a GPT block straight from its fused projection: qkv
// [B, T, 3·C] holds the queries, keys and values of heads heads of size C/heads side by side (as
// nn.CausalSelfAttention's one Linear writes them), and the result is [B, T, C] with the heads
// merged. Neither direction copies: the kernel reads the heads in place and the gradient of qkv is
// written as one [B, T, 3·C] tensor.
func MultiHeadAttention(qkv *Tensor, heads int, opts AttentionOptions) *Tensor {
	defer opSpan("MultiHeadAttention", qkv).End()
	const op = "MultiHeadAttention"
	if qkv.Dim() != 3 || heads < 1 || qkv.shape[2]%(3*heads) != 0 {
		panic(fmt.Sprintf("tensors: %s: qkv must be [B, T, 3·C] with C a multiple of heads %d, have %v", op, heads, qkv.shape))
	}
	b, t, c := qkv.shape[0], qkv.shape[1], qkv.shape[2]/3
	if t == 0 {
		panic(fmt.Sprintf("tensors: %s: empty sequence %v", op, qkv.shape))
	}
	d := c / heads
	x := qkv.dense()
	if x.dtype != Float32 && x.dtype != Float64 {
		panic(fmt.Sprintf("tensors: %s: qkv of type %s", op, x.dtype))
	}
	p := attnParams(b, heads, t, t, d, d, opts)
	mask := keyMask(op, opts.KeyMask, qkv, b, t)
	p.KeyMask = maskBuf(mask)
	q, k, v := packedHeads(x, p)
	out, lse := attnForward(q, k, v, p)
	for _, y := range []*Tensor{q, k, v} {
		y.release()
	}
	// out is [B, H, T, D] laid out as [B, T, H, D]: merging the heads is a view.
	merged := out.view([]int{b, t, c}, []int{t * c, c, 1}, out.offset)
	record(merged, op, []*Tensor{qkv}, func(g *Tensor) []*Tensor {
		return []*Tensor{attentionBackwardPacked(g, x, out, lse, p)}
	}, x, out, lse, mask)
	out.release()
	lse.release()
	releaseIfNot(x, qkv)
	releaseIfNot(mask, opts.KeyMask)
	return merged
}

// packedHeads returns the q, k and v views [B, H, T, D] of a contiguous [B, T, 3, H, D] tensor.
func packedHeads(x *Tensor, p backend.AttentionParams) (q, k, v *Tensor) {
	b, t, c := x.shape[0], x.shape[1], x.shape[2]/3
	st := []int{t * 3 * c, p.D, 3 * c, 1}
	part := func(i int) *Tensor { return x.view([]int{b, p.Heads, t, p.D}, st, x.offset+i*c) }
	return part(0), part(1), part(2)
}

func attnParams(b, h, tq, tk, d, dv int, opts AttentionOptions) backend.AttentionParams {
	if !(opts.Dropout >= 0 && opts.Dropout < 1) {
		panic(fmt.Sprintf("tensors: attention: dropout probability %v outside [0, 1)", opts.Dropout))
	}
	scale := opts.Scale
	if scale == 0 {
		scale = 1 / math.Sqrt(float64(d))
	}
	p := backend.AttentionParams{Batch: b, Heads: h, Tq: tq, Tk: tk, D: d, Dv: dv, Scale: scale, Causal: opts.Causal, Dropout: opts.Dropout}
	if opts.Dropout > 0 {
		g := opts.Gen
		if g == nil {
			g = defaultGen
		}
		p.Seed = g.Uint64()
	}
	return p
}

// keyMask checks a key padding mask against the operands (like is one of them: its device) and
// returns it as a contiguous int64 [b, tk] tensor (the mask itself when it already is); nil for
// no mask.
func keyMask(op string, m, like *Tensor, b, tk int) *Tensor {
	if m == nil {
		return nil
	}
	if m.Dim() != 2 || m.shape[0] != b || m.shape[1] != tk {
		panic(fmt.Sprintf("tensors: %s: KeyMask must be [B, Tk] = [%d, %d] (one entry per batch row and key), have %v", op, b, tk, m.shape))
	}
	checkDevices(op, like, m)
	if m.dtype == Int64 {
		return m.contig()
	}
	z := zeros(m.dtype, m.dev)
	ne := m.Ne(z)
	z.release()
	out := ne.AsType(Int64)
	ne.release()
	return out
}

// maskBuf is the buffer of a mask from keyMask (nil for none).
func maskBuf(m *Tensor) *backend.Buffer {
	if m == nil {
		return nil
	}
	return m.buf()
}

// headView returns t as an operand the kernels take: float32 or float64 with a unit last stride
// (t itself when it already is).
func headView(t *Tensor) *Tensor {
	x := t.computable()
	if x.strides[3] == 1 || x.shape[3] == 1 {
		if x.strides[3] != 1 {
			x = handOverUnless(x, t, x.view(x.shape, []int{x.strides[0], x.strides[1], x.strides[2], 1}, x.offset))
		}
		return x
	}
	return handOverUnless(x, t, x.contig())
}

// attention runs the fused kernel with autograd for separate q, k and v (mask is the tensor of
// p.KeyMask, held for the backward pass); the output is allocated as layout [B, Tq, H, Dv] and
// returned as [B, H, Tq, Dv].
func attention(op string, q, k, v, mask *Tensor, p backend.AttentionParams, layout [4]int) *Tensor {
	qx, kx, vx := headView(q), headView(k), headView(v)
	if qx.dtype != kx.dtype || qx.dtype != vx.dtype {
		panic(fmt.Sprintf("tensors: %s: q, k and v have types %s, %s and %s", op, qx.dtype, kx.dtype, vx.dtype))
	}
	out, lse := attnForward(qx, kx, vx, p)
	record(out, op, []*Tensor{q, k, v}, func(g *Tensor) []*Tensor {
		dq, dk, dv := headsLike(qx), headsLike(kx), headsLike(vx)
		attnBackward(g, qx, kx, vx, out, lse, dq, dk, dv, p)
		return []*Tensor{dq, dk, dv}
	}, qx, kx, vx, lse, mask)
	releaseIfNot(qx, q)
	releaseIfNot(kx, k)
	releaseIfNot(vx, v)
	lse.release()
	return out
}

// headsLike allocates a [B, H, T, D] tensor of t's shape, type and device, laid out as
// [B, T, H, D].
func headsLike(t *Tensor) *Tensor {
	return heads(t.dtype, t.dev, t.shape[0], t.shape[1], t.shape[2], t.shape[3])
}

// heads allocates a [b, h, n, d] tensor laid out as [b, n, h, d].
func heads(dt DType, dev Device, b, h, n, d int) *Tensor {
	x := empty(dt, dev, b, n, h, d)
	return handOver(x, x.view([]int{b, h, n, d}, []int{n * h * d, d, h * d, 1}, 0))
}

// attnForward runs the kernel: the output (laid out as [B, Tq, H, Dv]) and the rows' log-sum-exp.
func attnForward(q, k, v *Tensor, p backend.AttentionParams) (out, lse *Tensor) {
	out = heads(q.dtype, q.dev, p.Batch, p.Heads, p.Tq, p.Dv)
	lse = empty(q.dtype, q.dev, p.Rows())
	q.be().Attention(out.strided(), lse.buf(), q.strided(), k.strided(), v.strided(), p)
	return out, lse
}

// attnBackward computes the gradients into dq, dk, dv (any layouts with a unit last stride).
func attnBackward(g, q, k, v, out, lse, dq, dk, dv *Tensor, p backend.AttentionParams) {
	gx := headView(g)
	q.be().AttentionGrad(dq.strided(), dk.strided(), dv.strided(), gx.strided(), out.strided(), lse.buf(), q.strided(), k.strided(), v.strided(), p)
	releaseIfNot(gx, g)
}

// attentionBackwardPacked returns the gradient of the packed projection x [B, T, 3·C] given the
// gradient g [B, T, C] of the merged heads: dq, dk and dv are written as its three parts.
func attentionBackwardPacked(g, x, out, lse *Tensor, p backend.AttentionParams) *Tensor {
	b, t, c := x.shape[0], x.shape[1], x.shape[2]/3
	gx := empty(x.dtype, x.dev, b, t, 3*c)
	dq, dk, dv := packedHeads(gx, p)
	q, k, v := packedHeads(x, p)
	gc := g
	if g.strides[2] != 1 && c > 1 {
		gc = g.contig()
	}
	gh := gc.view([]int{b, p.Heads, t, p.D}, []int{gc.strides[0], p.D * gc.strides[2], gc.strides[1], gc.strides[2]}, gc.offset)
	attnBackward(gh, q, k, v, out, lse, dq, dk, dv, p)
	for _, y := range []*Tensor{dq, dk, dv, q, k, v, gh} {
		y.release()
	}
	releaseIfNot(gc, g)
	return gx
}
