package gemm

import (
	"math/bits"
	"sync"
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/parallel"
)

// Cache blocking, in k-steps and rows/columns: a kcSteps×nr B micro-panel
// stays in L1 while the kernel walks an mc×kc block of A held in L2; the
// kc×nc block of B lives in L2/L3.
const (
	kcSteps = 256
	mcRows  = 144
	ncCols  = 2048
)

// job is one GEMM call, with its operands reached through packing closures
// so the blocked loops are shared by every element type and transpose.
type job struct {
	k           kernel
	m, n, kdim  int
	alpha, beta float32
	c           []float32
	ldc         int
	// packA packs op(A)[i0:i0+mc, p0:p0+kc]; packB packs op(B)[p0:p0+kc, j0:j0+nc].
	packA func(dst []float32, i0, mc, p0, kc int)
	packB func(dst []float32, p0, kc, j0, nc int)
	// Operands the strided kernels read in place (nil: packed): a with leading dimension lda,
	// transposed when transA; b untransposed with leading dimension ldb.
	a      []float32
	lda    int
	transA bool
	b      []float32
	ldb    int
}

// scratch is one goroutine's space beside the shared panels: a tile of C for partial tiles, and
// the partial last panels of an A or B read in place, packed (zero-padded) once per block.
type scratch struct{ tile, pa, pb []float32 }

func (jb *job) scratchLen(ks int) int { return jb.k.mr*jb.k.nr + jb.k.mr*ks + ks*jb.k.nr }

func (jb *job) scratchAt(buf []float32, ks int) scratch {
	mr, nr := jb.k.mr, jb.k.nr
	return scratch{tile: buf[:mr*nr], pa: buf[mr*nr : mr*nr+mr*ks], pb: buf[mr*nr+mr*ks : mr*nr+mr*ks+ks*nr]}
}

// bufPools keep packing buffers for reuse across calls, one pool per power-of-two capacity: a
// small call (an attention block's product) never takes the buffer a large one needs, which the
// large one would then have to allocate and clear anew.
var bufPools [48]sync.Pool // *[]float32 of capacity 2^i

func getBuf(n int) *[]float32 {
	i := bits.Len(uint(max(n, 1) - 1))
	if v, ok := bufPools[i].Get().(*[]float32); ok {
		*v = (*v)[:n]
		return v
	}
	s := make([]float32, n, 1<<i)
	return &s
}

func putBuf(b *[]float32) { bufPools[bits.Len(uint(cap(*b)-1))].Put(b) }

// kBlock is the k-block length in elements: at most kcSteps steps, split
// evenly (784 = 4×196 rather than 3×256 + 16, whose thin last block would pay
// a full C update for little work) and a multiple of the kernel's unroll.
func (jb *job) kBlock() int {
	kcElems, unit := kcSteps, 4
	if jb.k.pairs {
		kcElems, unit = 2*kcSteps, 8
	}
	return min(kcElems, roundUp(ceilDiv(jb.kdim, ceilDiv(jb.kdim, kcElems)), unit))
}

// run computes the block C[i0:i1, j0:j1] over all of k, on this goroutine.
func (jb *job) run(i0, i1, j0, j1 int) {
	kr := jb.k
	kcElems := jb.kBlock()
	ksMax := steps(kcElems, kr.pairs)
	mc := min(mcRows/kr.mr*kr.mr, roundUp(i1-i0, kr.mr))
	nc := min(ncCols, roundUp(j1-j0, kr.nr))
	na, nb := mc*ksMax, nc*ksMax
	if jb.a != nil {
		na = 0
	}
	if jb.b != nil {
		nb = 0
	}
	buf := getBuf(na + nb + jb.scratchLen(ksMax))
	defer putBuf(buf)
	ap := (*buf)[:na]
	bp := (*buf)[na : na+nb]
	sc := jb.scratchAt((*buf)[na+nb:], ksMax)

	for jc := j0; jc < j1; jc += nc {
		ncb := min(nc, j1-jc)
		for pc := 0; pc < jb.kdim; pc += kcElems {
			kcb := min(kcElems, jb.kdim-pc)
			ks := steps(kcb, kr.pairs)
			beta := jb.beta
			if pc > 0 {
				beta = 1
			}
			if jb.b == nil {
				jb.packB(bp, pc, kcb, jc, ncb)
			}
			for ic := i0; ic < i1; ic += mc {
				mcb := min(mc, i1-ic)
				if jb.a == nil {
					jb.packA(ap, ic, mcb, pc, kcb)
				}
				jb.macro(ap, bp, sc, ks, ic, mcb, jc, ncb, pc, beta)
			}
		}
	}
}

// macro runs the kernel over every mr×nr tile of an mcb×ncb block: from the packed panels ap
// and bp, or, for an operand read in place, from the operand (its partial last panel packed into
// sc once).
func (jb *job) macro(ap, bp []float32, sc scratch, ks, ic, mcb, jc, ncb, pc int, beta float32) {
	if jb.a == nil && jb.b == nil {
		jb.macroPacked(ap, bp, sc.tile, ks, ic, mcb, jc, ncb, beta)
		return
	}
	kr := jb.k
	mr, nr := kr.mr, kr.nr
	kcb := min(jb.kdim-pc, ks)
	// The partial last panels, packed once for all the tiles that use them.
	lastRows, lastCols := mcb%mr, ncb%nr
	if jb.a != nil && lastRows != 0 && lastRows%4 != 0 {
		jb.packA(sc.pa, ic+mcb-lastRows, lastRows, pc, kcb)
	}
	if jb.b != nil && lastCols != 0 {
		jb.packB(sc.pb, pc, kcb, jc+ncb-lastCols, lastCols)
	}
	for jr := 0; jr < ncb; jr += nr {
		cols := min(nr, ncb-jr)
		var b unsafe.Pointer
		ldb := nr
		switch {
		case jb.b == nil:
			b = unsafe.Pointer(&bp[jr*ks])
		case cols < nr:
			b = unsafe.Pointer(&sc.pb[0])
		default:
			b, ldb = unsafe.Pointer(&jb.b[pc*jb.ldb+jc+jr]), jb.ldb
		}
		for ir := 0; ir < mcb; ir += mr {
			rows := min(mr, mcb-ir)
			var a unsafe.Pointer
			lda, rowMajor, fit := mr, false, rows // fit: the rows the kernel computes
			switch {
			case jb.a == nil:
				a = unsafe.Pointer(&ap[ir*ks])
				if rows%4 != 0 {
					fit = mr
				}
			case rows%4 != 0:
				a, fit = unsafe.Pointer(&sc.pa[0]), mr
			case jb.transA:
				a, lda = unsafe.Pointer(&jb.a[pc*jb.lda+ic+ir]), jb.lda
			default:
				a, lda, rowMajor = unsafe.Pointer(&jb.a[(ic+ir)*jb.lda+pc]), jb.lda, true
			}
			f := kr.strided.k[fit/4]
			if rowMajor {
				f = kr.strided.r[fit/4]
			}
			ci := (ic+ir)*jb.ldc + jc + jr
			if fit == rows && cols == nr {
				f(ks, a, lda, b, ldb, &jb.c[ci], jb.ldc, jb.alpha, beta)
				continue
			}
			f(ks, a, lda, b, ldb, &sc.tile[0], nr, jb.alpha, 0)
			jb.addTile(sc.tile, ci, rows, cols, beta)
		}
	}
}

// addTile stores rows×cols of the scratch tile t (row stride nr) into C at ci: C = t + beta·C.
func (jb *job) addTile(t []float32, ci, rows, cols int, beta float32) {
	nr := jb.k.nr
	for r := 0; r < rows; r++ {
		row := jb.c[ci+r*jb.ldc : ci+r*jb.ldc+cols]
		src := t[r*nr : r*nr+cols]
		if beta == 0 {
			copy(row, src)
			continue
		}
		for j, v := range src {
			row[j] = v + beta*row[j]
		}
	}
}

// macroPacked runs the kernel over every mr×nr tile of an mcb×ncb block of packed panels.
func (jb *job) macroPacked(ap, bp, tmp []float32, ks, ic, mcb, jc, ncb int, beta float32) {
	kr := jb.k
	mr, nr := kr.mr, kr.nr
	for jr := 0; jr < ncb; jr += nr {
		cols := min(nr, ncb-jr)
		b := unsafe.Pointer(&bp[jr*ks])
		for ir := 0; ir < mcb; ir += mr {
			rows := min(mr, mcb-ir)
			a := unsafe.Pointer(&ap[ir*ks])
			ci := (ic+ir)*jb.ldc + jc + jr
			if rows == mr && cols == nr {
				kr.fn(ks, a, b, &jb.c[ci], jb.ldc, jb.alpha, beta)
				continue
			}
			if f := kr.short[rows]; f != nil && cols == nr {
				f(ks, a, b, &jb.c[ci], jb.ldc, jb.alpha, beta)
				continue
			}
			kr.fn(ks, a, b, &tmp[0], nr, jb.alpha, 0)
			jb.addTile(tmp, ci, rows, cols, beta)
		}
	}
}

// parallel runs the job on up to Threads() goroutines: serially for small
// problems, else with runShared.
func (jb *job) parallel() {
	nt := Threads()
	// Below ~4 MFLOP per goroutine the start-up costs more than it wins.
	if work := 2 * jb.m * jb.n * jb.kdim; work/(4<<20) < nt {
		nt = max(1, work/(4<<20))
	}
	if nt <= 1 || ceilDiv(jb.m, jb.k.mr)*ceilDiv(jb.n, jb.k.nr) < 2 {
		jb.run(0, jb.m, 0, jb.n)
		return
	}
	// Passes of at most 16 row groups bound the shared A buffer (≈2.4 MB) for tall C.
	pass := 16 * (mcRows / jb.k.mr * jb.k.mr)
	for i0 := 0; i0 < jb.m; i0 += pass {
		jb.runShared(nt, i0, min(jb.m, i0+pass))
	}
}

// runShared computes rows [i0, i1) of C with nt goroutines that share every
// packed block: for each k-block they first pack those rows of op(A) and a
// block of op(B) into
// shared buffers (each panel packed once), then compute C in tiles of about
// mcRows rows by a column group. Both phases hand out small chunks through an
// atomic counter, so a goroutine whose core is taken by another process
// delays the call by one chunk, not by a fixed share of the work.
func (jb *job) runShared(nt, i0, i1 int) {
	kr := jb.k
	m := i1 - i0
	kcElems := jb.kBlock()
	ksMax := steps(kcElems, kr.pairs)
	groups := ceilDiv(m, mcRows/kr.mr*kr.mr)
	mc := roundUp(ceilDiv(m, groups), kr.mr) // equal row groups, each in L2
	nc := min(ncCols, roundUp(jb.n, kr.nr))
	na, nb := roundUp(m, kr.mr)*ksMax, nc*ksMax
	if jb.a != nil {
		na = 0
	}
	if jb.b != nil {
		nb = 0
	}
	abuf, bbuf := getBuf(na), getBuf(nb)
	per := jb.scratchLen(ksMax)
	tbuf := getBuf(nt * per)
	defer putBuf(abuf)
	defer putBuf(bbuf)
	defer putBuf(tbuf)
	ap, bp, tmp := *abuf, *bbuf, *tbuf
	for jc := 0; jc < jb.n; jc += nc {
		ncb := min(nc, jb.n-jc)
		// Column groups: enough chunks for balance, at least one panel each.
		cgroups := min(ceilDiv(ncb, kr.nr), max(1, ceilDiv(4*nt, groups)))
		cw := roundUp(ceilDiv(ncb, cgroups), kr.nr)
		cgroups = ceilDiv(ncb, cw)
		bw := 4 * kr.nr // columns of B per packing chunk
		for pc := 0; pc < jb.kdim; pc += kcElems {
			kcb := min(kcElems, jb.kdim-pc)
			ks := steps(kcb, kr.pairs)
			beta := jb.beta
			if pc > 0 {
				beta = 1
			}
			aChunks, bChunks := groups, ceilDiv(ncb, bw)
			if jb.a != nil {
				aChunks = 0
			}
			if jb.b != nil {
				bChunks = 0
			}
			if aChunks+bChunks > 0 {
				parallelChunks(nt, aChunks+bChunks, func(_, c int) {
					if c < aChunks {
						i := c * mc
						if i < m {
							jb.packA(ap[i*ks:], i0+i, min(mc, m-i), pc, kcb)
						}
						return
					}
					j := (c - aChunks) * bw
					jb.packB(bp[j*ks:], pc, kcb, jc+j, min(bw, ncb-j))
				})
			}
			parallelChunks(nt, groups*cgroups, func(t, c int) {
				i, j := c/cgroups*mc, c%cgroups*cw
				if i < m {
					var a, b []float32
					if jb.a == nil {
						a = ap[i*ks:]
					}
					if jb.b == nil {
						b = bp[j*ks:]
					}
					jb.macro(a, b, jb.scratchAt(tmp[t*per:], ksMax), ks, i0+i, min(mc, m-i), jc+j, min(cw, ncb-j), pc, beta)
				}
			})
		}
	}
}

// parallelChunks calls f(t, c) for every chunk c in [0, n) on up to nt goroutines (t is the
// goroutine's index, for its scratch space) and waits. They are the process's shared workers
// (package parallel), which the CPU backend's ops use too: goroutines of gemm's own would wait
// behind a worker spinning for the next op.
func parallelChunks(nt, n int, f func(t, c int)) { parallel.Run(nt, n, f) }

func ceilDiv(a, b int) int { return (a + b - 1) / b }
func roundUp(a, b int) int { return ceilDiv(a, b) * b }
