package cpu

import (
	"math"
	"sync"
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/gemm"
)

// Fused attention in the manner of FlashAttention-2: queries in blocks of attnBlock rows, keys
// in blocks of attnBlock, each score block computed with a small gemm, folded into a running
// (online) softmax and multiplied into the output at once. Memory is a few blocks per core,
// whatever the sequence length. The backward pass recomputes each block's weights from the
// saved log-sum-exp of its rows.

// attnBlock is the query and key block size: 64×64 scores (16 KiB of float32) stay in L1/L2
// next to the operand rows.
const attnBlock = 64

// attnGemm is the serial gemm of T (float32: assembly kernels; float64: the reference loops).
func attnGemm[T float](transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if unsafe.Sizeof(alpha) == 4 {
		f := func(s []T) []float32 {
			if len(s) == 0 {
				return nil
			}
			return unsafe.Slice((*float32)(unsafe.Pointer(&s[0])), len(s))
		}
		gemm.SgemmSerial(transA, transB, m, n, k, float32(alpha), f(a), lda, f(b), ldb, float32(beta), f(c), ldc)
		return
	}
	d := func(s []T) []float64 {
		if len(s) == 0 {
			return nil
		}
		return unsafe.Slice((*float64)(unsafe.Pointer(&s[0])), len(s))
	}
	gemm.Dgemm(transA, transB, m, n, k, float64(alpha), d(a), lda, d(b), ldb, float64(beta), d(c), ldc)
}

// expShiftT writes d[i] = e^(s[i]-shift) for a row and returns the sum.
func expShiftT[T float](d, s []T, shift T) float64 {
	if len(s) == 0 {
		return 0
	}
	if unsafe.Sizeof(shift) == 4 {
		return expShiftSum(asF32(d), asF32(s), float32(shift))
	}
	return expRow(d, s, shift)
}

// expVisible writes row[j] = e^(row[j]−shift) for the vis visible scores of a block row of
// length nk and zeros after them, and returns the sum. Where the block holds them, the scores
// past vis up to the next multiple of 8 are set to −∞ first so that the vector kernel covers the
// row's tail (their e^ is 0) instead of the scalar loop.
func expVisible[T float](row []T, vis int, shift T) float64 {
	end := min(len(row), (vis+7)&^7)
	for j := vis; j < end; j++ {
		row[j] = T(math.Inf(-1))
	}
	sum := expShiftT(row[:end], row[:end], shift)
	clear(row[end:])
	return sum
}

// mulRowT sets d[i] = x[i]·v.
func mulRowT[T float](d, x []T, v T) {
	done := 0
	if len(d) > 0 && unsafe.Sizeof(v) == 4 {
		done = vecF32(backend.Mul, asF32(d), asF32(x), nil, float32(v))
	}
	for i := done; i < len(d); i++ {
		d[i] = x[i] * v
	}
}

// softmaxGradRow sets d[i] = w[i]·(d[i] − u), the softmax backward's dS from dP.
func softmaxGradRow[T float](d, w []T, u T) {
	done := 0
	if len(d) > 0 && unsafe.Sizeof(u) == 4 {
		df := asF32(d)
		done = vecF32(backend.Sub, df, df, nil, float32(u))
		vecF32(backend.Mul, df[:done], df[:done], asF32(w)[:done], 0)
	}
	for i := done; i < len(d); i++ {
		d[i] = w[i] * (d[i] - u)
	}
}

// dotT returns Σ a[i]·b[i] for len(a) elements.
func dotT[T float](a, b []T) T {
	b = b[:len(a)]
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// transposeT writes the rows×cols block starting at src (row stride lds) transposed into dst
// (row stride ldd): dst[j*ldd+i] = src[i*lds+j].
func transposeT[T float](dst []T, ldd int, src []T, lds, rows, cols int) {
	if rows > 0 && cols > 0 && unsafe.Sizeof(dst[0]) == 4 {
		gemm.Transpose(asF32(dst), ldd, asF32(src[:(rows-1)*lds+cols]), lds, rows, cols)
		return
	}
	for i := range rows {
		for j := range cols {
			dst[j*ldd+i] = src[i*lds+j]
		}
	}
}

// view4 addresses a [B, H, T, D] strided operand.
type view4[T float] struct {
	data       []T
	off        int
	sb, sh, st int
	rows, cols int // T, D
}

func newView4[T float](s backend.Strided, data []T, rows, cols int) view4[T] {
	return view4[T]{data: data, off: s.Offset, sb: s.Strides[0], sh: s.Strides[1], st: s.Strides[2], rows: rows, cols: cols}
}

// at returns the slice starting at row i of problem (b, h), for a gemm operand of row stride st.
func (v view4[T]) at(b, h, i int) []T {
	o := v.off + b*v.sb + v.sh*h + i*v.st
	return v.data[o:]
}

// row returns row i of problem (b, h).
func (v view4[T]) row(b, h, i int) []T {
	o := v.off + b*v.sb + v.sh*h + i*v.st
	return v.data[o : o+v.cols]
}

// attnScratch is one worker's blocks.
type attnScratch[T float] struct {
	s, p, dp []T // attnBlock×attnBlock
	acc      []T // attnBlock×Dv
	m, l     []T // attnBlock
	di       []T // Tq
	kt, vt   []T // a key block and a value block transposed: D×attnBlock, Dv×attnBlock
}

var attnPools sync.Map // element size → *sync.Pool of *attnScratch

func getScratch[T float](dk, dv, tq int) *attnScratch[T] {
	var z T
	pl, _ := attnPools.LoadOrStore(unsafe.Sizeof(z), &sync.Pool{})
	sc, _ := pl.(*sync.Pool).Get().(*attnScratch[T])
	if sc == nil {
		sc = &attnScratch[T]{}
	}
	grow := func(s []T, n int) []T {
		if cap(s) < n {
			return make([]T, n)
		}
		return s[:n]
	}
	bb := attnBlock * attnBlock
	sc.s, sc.p, sc.dp = grow(sc.s, bb), grow(sc.p, bb), grow(sc.dp, bb)
	sc.acc = grow(sc.acc, attnBlock*dv)
	sc.m, sc.l = grow(sc.m, attnBlock), grow(sc.l, attnBlock)
	sc.di = grow(sc.di, tq)
	sc.kt, sc.vt = grow(sc.kt, attnBlock*dk), grow(sc.vt, attnBlock*dv)
	return sc
}

func putScratch[T float](sc *attnScratch[T]) {
	var z T
	pl, _ := attnPools.Load(unsafe.Sizeof(z))
	pl.(*sync.Pool).Put(sc)
}

// visibleCols is how many keys of block [j0, j0+nk) query i sees (a prefix, under the causal
// mask).
func visibleCols(p backend.AttentionParams, i, j0, nk int) int {
	if !p.Causal {
		return nk
	}
	return max(0, min(nk, i-j0+1))
}

// keyBlocks is how many key blocks the query block starting at i0 (of nq rows) sees, of keys
// before end.
func keyBlocks(p backend.AttentionParams, i0, nq, end int) int {
	last := end
	if p.Causal {
		last = min(end, i0+nq) // keys < last are visible to some row
	}
	return (last + attnBlock - 1) / attnBlock
}

// dropRow applies dropout to the weights w of query i, keys j0.. in place (scaled by KeepScale).
// It makes backend.DropoutKeep's decisions bit for bit, faster: the draw's counter advances by
// φ per key instead of being multiplied out, and u ≥ p is compared as integers. In float32 the
// decision masks the scaled weight's bits instead of branching: a tenth of random decisions
// would mispredict.
func dropRow[T float](w []T, p backend.AttentionParams, b, h, i, j0 int) {
	thr := dropThreshold(p.Dropout)
	z := p.Seed + (uint64(((b*p.Heads+h)*p.Tq+i)*p.Tk+j0)+1)*dropPhi
	if w, ok := any(w).([]float32); ok {
		ks := float32(p.KeepScale())
		for j := range w {
			// The draw is below 2²⁴ and thr at most 2²⁴: the difference's sign bit is set
			// exactly when the weight is dropped, and kept is then 0, else all ones.
			kept := uint32((splitMix(z)>>40-thr)>>63) - 1
			w[j] = math.Float32frombits(math.Float32bits(w[j]*ks) & kept)
			z += dropPhi
		}
		return
	}
	ks := T(p.KeepScale())
	for j := range w {
		if splitMix(z)>>40 >= thr {
			w[j] *= ks
		} else {
			w[j] = 0
		}
		z += dropPhi
	}
}

// dropSoftmaxGradRow is the softmax backward of one row under dropout: row (dP on entry)
// becomes w∘(dP∘Z − d), where w are the weights, d the row's D term and Z dropout's factor, 0
// where the dropped weight pd is 0 and ks where it is not (where w itself is 0 the product is 0
// whatever Z is, so pd gives the mask without drawing it again). In float32 Z is chosen by
// masking ks's bits instead of branching.
func dropSoftmaxGradRow[T float](row, w, pd []T, ks, d T) {
	w, pd = w[:len(row)], pd[:len(row)]
	if row, ok := any(row).([]float32); ok {
		w, pd := any(w).([]float32), any(pd).([]float32)
		ksb, d := math.Float32bits(float32(ks)), float32(d)
		for j := range row {
			// All ones where pd is nonzero (either sign), else 0.
			nz := uint32(int32(-(math.Float32bits(pd[j]) & 0x7fffffff)) >> 31)
			z := math.Float32frombits(ksb & nz)
			row[j] = w[j] * (row[j]*z - d)
		}
		return
	}
	for j := range row {
		z := ks
		if pd[j] == 0 {
			z = 0
		}
		row[j] = w[j] * (row[j]*z - d)
	}
}

// dropPhi is the increment of backend.DropoutUniform's counter.
const dropPhi = 0x9E3779B97F4A7C15

// splitMix is backend.DropoutUniform's finaliser before the top 24 bits become the float.
func splitMix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// dropThreshold is the smallest 24-bit draw that is kept: DropoutUniform ≥ float32(p) exactly
// when (draw >> 40) ≥ ceil(float32(p)·2²⁴) (both sides are exact multiples of 2⁻²⁴).
func dropThreshold(p float64) uint64 {
	return uint64(math.Ceil(float64(float32(p)) * (1 << 24)))
}

// Attention implements backend.AttentionOps.
func (c *CPU) Attention(out backend.Strided, lse *backend.Buffer, q, k, v backend.Strided, p backend.AttentionParams) {
	if q.Buf.DType == backend.F64 {
		attention(out, lse.F64, q, k, v, p, q.Buf.F64, k.Buf.F64, v.Buf.F64, out.Buf.F64)
		return
	}
	attention(out, lse.F32, q, k, v, p, q.Buf.F32, k.Buf.F32, v.Buf.F32, out.Buf.F32)
}

func attention[T float](out backend.Strided, lse []T, q, k, v backend.Strided, p backend.AttentionParams, qd, kd, vd, od []T) {
	qv, kv, vv := newView4(q, qd, p.Tq, p.D), newView4(k, kd, p.Tk, p.D), newView4(v, vd, p.Tk, p.Dv)
	ov := newView4(out, od, p.Tq, p.Dv)
	km := newKeyMask(p)
	qBlocks := (p.Tq + attnBlock - 1) / attnBlock
	tasks := p.Batch * p.Heads * qBlocks
	work := p.Batch * p.Heads * p.Tq * p.Tk * (p.D + p.Dv)
	parallelFor(tasks, work, func(lo, hi int) {
		sc := getScratch[T](p.D, p.Dv, p.Tq)
		defer putScratch(sc)
		for t := lo; t < hi; t++ {
			bh, qb := t/qBlocks, t%qBlocks
			attnForwardBlock(sc, lse, qv, kv, vv, ov, p, km, bh/p.Heads, bh%p.Heads, qb*attnBlock)
		}
	})
}

// attnForwardBlock computes the output rows [i0, i0+attnBlock) of problem (b, h). A row that
// sees no key gets zeros and a log-sum-exp of +Inf.
func attnForwardBlock[T float](sc *attnScratch[T], lse []T, qv, kv, vv, ov view4[T], p backend.AttentionParams, km *keyMask, b, h, i0 int) {
	nq := min(attnBlock, p.Tq-i0)
	dv := p.Dv
	acc, m, l := sc.acc[:nq*dv], sc.m[:nq], sc.l[:nq]
	for r := range m {
		m[r] = T(math.Inf(-1))
		l[r] = 0
	}
	end := km.keyEnd(b, p.Tk)
	for jb := range keyBlocks(p, i0, nq, end) {
		j0 := jb * attnBlock
		nk := min(attnBlock, end-j0)
		holes := km.hasHoles(b, jb)
		s := sc.s[:nq*attnBlock]
		attnGemm(false, true, nq, nk, p.D, T(p.Scale), qv.at(b, h, i0), qv.st, kv.at(b, h, j0), kv.st, 0, s, attnBlock)
		for r := range nq {
			vis := visibleCols(p, i0+r, j0, nk)
			row := s[r*attnBlock : r*attnBlock+nk]
			if vis == 0 {
				clear(row)
				continue
			}
			if holes {
				maskScores(row[:vis], km, b, j0)
			}
			bm := maxT(row[:vis])
			if math.IsInf(float64(bm), -1) { // every key of the block masked for this row
				clear(row)
				continue
			}
			mx := max(m[r], bm)
			corr := T(0) // the first visible block: nothing to rescale
			if !math.IsInf(float64(m[r]), -1) {
				corr = T(expT(m[r] - mx))
			}
			sum := expVisible(row, vis, mx)
			if holes {
				zeroMasked(row[:vis], km, b, j0)
			}
			l[r] = l[r]*corr + T(sum)
			m[r] = mx
			// The first block's product overwrites acc (beta 0): nothing to rescale before it.
			if jb > 0 && corr != 1 {
				scaleT(acc[r*dv:(r+1)*dv], corr)
			}
			if p.Dropout > 0 {
				dropRow(row[:vis], p, b, h, i0+r, j0)
			}
		}
		beta := T(1)
		if jb == 0 {
			beta = 0
		}
		attnGemm(false, false, nq, dv, nk, 1, s, attnBlock, vv.at(b, h, j0), vv.st, beta, acc, dv)
	}
	if end == 0 { // no key block at all: acc was never written
		clear(acc)
	}
	rowBase := (b*p.Heads+h)*p.Tq + i0
	for r := range nq {
		dst := ov.row(b, h, i0+r)
		src := acc[r*dv : (r+1)*dv]
		if l[r] == 0 { // no visible key
			clear(dst)
			lse[rowBase+r] = T(math.Inf(1))
			continue
		}
		mulRowT(dst, src, 1/l[r])
		lse[rowBase+r] = m[r] + T(math.Log(float64(l[r])))
	}
}

// AttentionGrad implements backend.AttentionOps.
func (c *CPU) AttentionGrad(dq, dk, dv, gout, out backend.Strided, lse *backend.Buffer, q, k, v backend.Strided, p backend.AttentionParams) {
	if q.Buf.DType == backend.F64 {
		attentionGrad(dq, dk, dv, gout, out, lse.F64, q, k, v, p, dq.Buf.F64, dk.Buf.F64, dv.Buf.F64, gout.Buf.F64, out.Buf.F64, q.Buf.F64, k.Buf.F64, v.Buf.F64)
		return
	}
	attentionGrad(dq, dk, dv, gout, out, lse.F32, q, k, v, p, dq.Buf.F32, dk.Buf.F32, dv.Buf.F32, gout.Buf.F32, out.Buf.F32, q.Buf.F32, k.Buf.F32, v.Buf.F32)
}

// attnGradViews are the eight operands of the backward pass.
type attnGradViews[T float] struct {
	dq, dk, dv, g, o, q, k, v view4[T]
}

func attentionGrad[T float](dq, dk, dv, gout, out backend.Strided, lse []T, q, k, v backend.Strided, p backend.AttentionParams, dqd, dkd, dvd, gd, od, qd, kd, vd []T) {
	vs := attnGradViews[T]{
		dq: newView4(dq, dqd, p.Tq, p.D), dk: newView4(dk, dkd, p.Tk, p.D), dv: newView4(dv, dvd, p.Tk, p.Dv),
		g: newView4(gout, gd, p.Tq, p.Dv), o: newView4(out, od, p.Tq, p.Dv),
		q: newView4(q, qd, p.Tq, p.D), k: newView4(k, kd, p.Tk, p.D), v: newView4(v, vd, p.Tk, p.Dv),
	}
	km := newKeyMask(p)
	tasks := p.Batch * p.Heads
	work := 2 * tasks * p.Tq * p.Tk * (p.D + p.Dv)
	parallelFor(tasks, work, func(lo, hi int) {
		sc := getScratch[T](p.D, p.Dv, p.Tq)
		defer putScratch(sc)
		for t := lo; t < hi; t++ {
			attnBackwardProblem(sc, lse, vs, p, km, t/p.Heads, t%p.Heads)
		}
	})
}

// attnBackwardProblem computes the gradients of one (b, h) problem, key block by key block, so
// each key block's dK and dV rows are finished before the next, and dQ accumulates in place.
func attnBackwardProblem[T float](sc *attnScratch[T], lse []T, vs attnGradViews[T], p backend.AttentionParams, km *keyMask, b, h int) {
	zeroRows := func(v view4[T], from, to int) {
		for i := from; i < to; i++ {
			clear(v.row(b, h, i))
		}
	}
	// D_i = Σ dO_i·O_i, the softmax backward's row term (dropout included: O is what was output).
	di := sc.di[:p.Tq]
	for i := range p.Tq {
		di[i] = dotT(vs.g.row(b, h, i), vs.o.row(b, h, i))
	}
	rowBase := (b*p.Heads + h) * p.Tq
	scale := T(p.Scale)
	end := km.keyEnd(b, p.Tk) // keys past it get no gradient: their rows stay zero
	zeroRows(vs.dk, end, p.Tk)
	zeroRows(vs.dv, end, p.Tk)
	if end == 0 {
		zeroRows(vs.dq, 0, p.Tq)
	}
	// Each gradient block's first contribution is written with beta 0 (dQ's by the first key
	// block, which every query block sees; dK's and dV's by the first query block that sees
	// theirs), so no row is cleared first.
	for j0 := 0; j0 < end; j0 += attnBlock {
		nk := min(attnBlock, end-j0)
		holes := km.hasHoles(b, j0/attnBlock)
		first := 0
		if p.Causal {
			first = j0 / attnBlock * attnBlock // query blocks before the key block see none of it
		}
		if first >= p.Tq {
			zeroRows(vs.dk, j0, j0+nk)
			zeroRows(vs.dv, j0, j0+nk)
			continue
		}
		// K_j and V_j transposed once for all the query blocks: their products are then
		// untransposed, read in place.
		kt, vt := sc.kt[:p.D*attnBlock], sc.vt[:p.Dv*attnBlock]
		transposeT(kt, attnBlock, vs.k.at(b, h, j0), vs.k.st, nk, p.D)
		transposeT(vt, attnBlock, vs.v.at(b, h, j0), vs.v.st, nk, p.Dv)
		for i0 := first; i0 < p.Tq; i0 += attnBlock {
			nq := min(attnBlock, p.Tq-i0)
			s, pd, dp := sc.s[:nq*attnBlock], sc.s[:nq*attnBlock], sc.dp[:nq*attnBlock]
			if p.Dropout > 0 {
				pd = sc.p[:nq*attnBlock]
			}
			attnGemm(false, false, nq, nk, p.D, scale, vs.q.at(b, h, i0), vs.q.st, kt, attnBlock, 0, s, attnBlock)
			// s becomes P (the weights), pd the weights after dropout.
			for r := range nq {
				vis := visibleCols(p, i0+r, j0, nk)
				row := s[r*attnBlock : r*attnBlock+nk]
				if math.IsInf(float64(lse[rowBase+i0+r]), 1) { // the row saw no key
					vis = 0
				}
				expVisible(row, vis, lse[rowBase+i0+r])
				if holes {
					zeroMasked(row[:vis], km, b, j0)
				}
				if p.Dropout > 0 {
					prow := pd[r*attnBlock : r*attnBlock+nk]
					copy(prow, row)
					dropRow(prow[:vis], p, b, h, i0+r, j0)
				}
			}
			firstQ := T(1)
			if i0 == first {
				firstQ = 0
			}
			// dV_j += Pdᵀ·dO_i
			attnGemm(true, false, nk, p.Dv, nq, 1, pd, attnBlock, vs.g.at(b, h, i0), vs.g.st, firstQ, vs.dv.at(b, h, j0), vs.dv.st)
			// dP = dO_i·V_jᵀ, then dropout's mask and dS = P∘(dP − D)
			attnGemm(false, false, nq, nk, p.Dv, 1, vs.g.at(b, h, i0), vs.g.st, vt, attnBlock, 0, dp, attnBlock)
			for r := range nq {
				row := dp[r*attnBlock : r*attnBlock+nk]
				w := s[r*attnBlock : r*attnBlock+nk]
				d := di[i0+r]
				if p.Dropout == 0 {
					softmaxGradRow(row, w, d)
					continue
				}
				dropSoftmaxGradRow(row, w, pd[r*attnBlock:r*attnBlock+nk], T(p.KeepScale()), d)
			}
			firstK := T(1)
			if j0 == 0 {
				firstK = 0
			}
			// dQ_i += Scale·dS·K_j; dK_j += Scale·dSᵀ·Q_i
			attnGemm(false, false, nq, p.D, nk, scale, dp, attnBlock, vs.k.at(b, h, j0), vs.k.st, firstK, vs.dq.at(b, h, i0), vs.dq.st)
			attnGemm(true, false, nk, p.D, nq, scale, dp, attnBlock, vs.q.at(b, h, i0), vs.q.st, firstQ, vs.dk.at(b, h, j0), vs.dk.st)
		}
	}
}
