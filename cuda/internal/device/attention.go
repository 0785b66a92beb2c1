package device

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors/backend"
)

// attnArg is the kernels' Attn struct; attnGradArg their AttnGrad.
type attnArg struct {
	B, H, Tq, Tk, D, Dv int64
	Q, K, V, O          [3]int64
	Scale, Dropout      float64
	Seed                uint64
	Causal              int64
	Mask                uint64 // the key padding mask's device address, 0 for none
}

type attnGradArg struct {
	A             attnArg
	DQ, DK, DV, G [3]int64
}

// maxHeadSize is what one warp per row holds: 32 lanes × ATTN_LANE_DIMS.
const maxHeadSize = 256

func strides3(s backend.Strided) [3]int64 {
	return [3]int64{int64(s.Strides[0]), int64(s.Strides[1]), int64(s.Strides[2])}
}

func newAttnArg(q, k, v, out backend.Strided, p backend.AttentionParams) attnArg {
	if p.D > maxHeadSize || p.Dv > maxHeadSize {
		panic(fmt.Sprintf("tensors: ScaledDotProductAttention: head size %d (values %d) is above the %d the CUDA kernel holds per row", p.D, p.Dv, maxHeadSize))
	}
	a := attnArg{B: int64(p.Batch), H: int64(p.Heads), Tq: int64(p.Tq), Tk: int64(p.Tk), D: int64(p.D), Dv: int64(p.Dv),
		Q: strides3(q), K: strides3(k), V: strides3(v), O: strides3(out), Scale: p.Scale, Dropout: p.Dropout, Seed: p.Seed}
	if p.Causal {
		a.Causal = 1
	}
	if p.KeyMask != nil {
		a.Mask = uint64(p.KeyMask.Ptr)
	}
	return a
}

// warpRows is the grid of a kernel with one warp (of the block's eight) per row.
func warpRows(rows int) uint32 { return rowsGrid(int64((rows + threads/32 - 1) / (threads / 32))) }

// Attention implements backend.AttentionOps: one warp per query row runs the online softmax
// over the keys it sees.
func (d *Device) Attention(out backend.Strided, lse *backend.Buffer, q, k, v backend.Strided, p backend.AttentionParams) {
	a := newAttnArg(q, k, v, out, p)
	d.run("attention", func() error {
		return d.launch("attn_fwd"+suffix(q.Buf.DType), warpRows(p.Rows()), addr(out.Buf, out.Offset), lse.Ptr,
			addr(q.Buf, q.Offset), addr(k.Buf, k.Offset), addr(v.Buf, v.Offset), a)
	})
}

// AttentionGrad implements backend.AttentionOps: a warp per query row computes dQ (and the rows'
// Σ dO·O), then a warp per key row dK and dV; both recompute the weights.
func (d *Device) AttentionGrad(dq, dk, dv, gout, out backend.Strided, lse *backend.Buffer, q, k, v backend.Strided, p backend.AttentionParams) {
	w := attnGradArg{A: newAttnArg(q, k, v, out, p), DQ: strides3(dq), DK: strides3(dk), DV: strides3(dv), G: strides3(gout)}
	s := suffix(q.Buf.DType)
	d.run("attention gradient", func() error {
		drow, err := d.alloc(q.Buf.DType, p.Rows(), false)
		if err != nil {
			return err
		}
		defer d.Release(drow)
		ops := []uintptr{addr(gout.Buf, gout.Offset), addr(out.Buf, out.Offset), lse.Ptr, addr(q.Buf, q.Offset), addr(k.Buf, k.Offset), addr(v.Buf, v.Offset)}
		if err := d.launch("attn_grad_q"+s, warpRows(p.Rows()), addr(dq.Buf, dq.Offset), drow.Ptr, ops[0], ops[1], ops[2], ops[3], ops[4], ops[5], w); err != nil {
			return err
		}
		return d.launch("attn_grad_kv"+s, warpRows(p.Batch*p.Heads*p.Tk), addr(dk.Buf, dk.Offset), addr(dv.Buf, dv.Offset), drow.Ptr,
			ops[0], ops[2], ops[3], ops[4], ops[5], w)
	})
}

// TopK implements backend.SamplingOps: a thread per row keeps its sorted prefix in vals and idx
// (nothing to do for k = 0).
func (d *Device) TopK(vals, idx, src *backend.Buffer, outer, n, inner, k int, largest bool) {
	if k == 0 {
		return
	}
	l := int32(0)
	if largest {
		l = 1
	}
	d.run("top-k", func() error {
		return d.launch("topk"+suffix(src.DType), blocksFor(int64(outer*inner)), vals.Ptr, idx.Ptr, src.Ptr,
			int64(outer), int64(n), int64(inner), int64(k), l)
	})
}

// Multinomial implements backend.SamplingOps: a thread per row; a row with bad weights is
// reported at the next read-back.
func (d *Device) Multinomial(dst, probs, u *backend.Buffer, rows, n, samples int, replacement bool) {
	r := int32(0)
	if replacement {
		r = 1
	}
	d.run("multinomial", func() error {
		return d.launch("multinomial"+suffix(probs.DType), blocksFor(int64(rows)), dst.Ptr, probs.Ptr, u.Ptr,
			int64(rows), int64(n), int64(samples), r, d.errBuf)
	})
}
