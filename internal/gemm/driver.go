package gemm

import (
	"sync"
	"unsafe"
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
}

var bufPool sync.Pool // *[]float32 packing buffers, reused across calls

func getBuf(n int) *[]float32 {
	if v, ok := bufPool.Get().(*[]float32); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	s := make([]float32, n)
	return &s
}

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
	mc := min(mcRows/kr.mr*kr.mr, roundUp(i1-i0, kr.mr))
	nc := min(ncCols, roundUp(j1-j0, kr.nr))
	buf := getBuf(mc*kcSteps + nc*kcSteps + kr.mr*kr.nr)
	defer bufPool.Put(buf)
	ap := (*buf)[:mc*kcSteps]
	bp := (*buf)[mc*kcSteps : mc*kcSteps+nc*kcSteps]
	tmp := (*buf)[mc*kcSteps+nc*kcSteps:]

	for jc := j0; jc < j1; jc += nc {
		ncb := min(nc, j1-jc)
		for pc := 0; pc < jb.kdim; pc += kcElems {
			kcb := min(kcElems, jb.kdim-pc)
			ks := steps(kcb, kr.pairs)
			beta := jb.beta
			if pc > 0 {
				beta = 1
			}
			jb.packB(bp, pc, kcb, jc, ncb)
			for ic := i0; ic < i1; ic += mc {
				mcb := min(mc, i1-ic)
				jb.packA(ap, ic, mcb, pc, kcb)
				jb.macro(ap, bp, tmp, ks, ic, mcb, jc, ncb, beta)
			}
		}
	}
}

// macro runs the kernel over every mr×nr tile of an mcb×ncb block.
func (jb *job) macro(ap, bp, tmp []float32, ks, ic, mcb, jc, ncb int, beta float32) {
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
			kr.fn(ks, a, b, &tmp[0], nr, jb.alpha, 0)
			for r := 0; r < rows; r++ {
				row := jb.c[ci+r*jb.ldc : ci+r*jb.ldc+cols]
				t := tmp[r*nr : r*nr+cols]
				if beta == 0 {
					copy(row, t)
					continue
				}
				for j, v := range t {
					row[j] = v + beta*row[j]
				}
			}
		}
	}
}

// parallel runs the job on up to Threads() goroutines. When splitting the
// rows of C balances the work as well as splitting its columns, the
// goroutines share each packed block of B (packed cooperatively, so nothing
// is packed twice); otherwise each goroutine owns a column strip of C and
// packs its own B (and all of the small A).
func (jb *job) parallel() {
	kr := jb.k
	nt := Threads()
	// Below ~4 MFLOP per goroutine the start-up and duplicated packing cost more than they win.
	if work := 2 * jb.m * jb.n * jb.kdim; work/(4<<20) < nt {
		nt = max(1, work/(4<<20))
	}
	mt, ntl := ceilDiv(jb.m, kr.mr), ceilDiv(jb.n, kr.nr)
	if nt <= 1 || max(mt, ntl) < 2 {
		jb.run(0, jb.m, 0, jb.n)
		return
	}
	balance := func(tiles int) float64 {
		t := min(nt, tiles)
		return float64(tiles) / float64(nt*ceilDiv(tiles, t))
	}
	if mt >= nt && balance(mt) >= balance(ntl)-0.02 {
		jb.runSharedB(min(nt, mt))
		return
	}
	nt = min(nt, ntl)
	parallelFor(nt, func(t int) {
		lo := min(jb.n, ntl*t/nt*kr.nr)
		hi := min(jb.n, ntl*(t+1)/nt*kr.nr)
		if lo < hi {
			jb.run(0, jb.m, lo, hi)
		}
	})
}

// runSharedB splits the rows of C over nt goroutines; for every block of B
// all goroutines first pack a share of its panels into one buffer, then each
// multiplies its own rows by the whole block.
func (jb *job) runSharedB(nt int) {
	kr := jb.k
	kcElems := jb.kBlock()
	mt := ceilDiv(jb.m, kr.mr)
	nt = max(1, min(nt, mt))
	rowsOf := func(t int) (int, int) { return min(jb.m, mt*t/nt*kr.mr), min(jb.m, mt*(t+1)/nt*kr.mr) }
	mc := min(mcRows/kr.mr*kr.mr, ceilDiv(mt, nt)*kr.mr)
	nc := min(ncCols, roundUp(jb.n, kr.nr))
	bbuf := getBuf(nc * kcSteps)
	defer bufPool.Put(bbuf)
	bp := *bbuf
	abufs := make([]*[]float32, nt)
	for t := range abufs {
		abufs[t] = getBuf(mc*kcSteps + kr.mr*kr.nr)
		defer bufPool.Put(abufs[t])
	}
	for jc := 0; jc < jb.n; jc += nc {
		ncb := min(nc, jb.n-jc)
		panels := ceilDiv(ncb, kr.nr)
		for pc := 0; pc < jb.kdim; pc += kcElems {
			kcb := min(kcElems, jb.kdim-pc)
			ks := steps(kcb, kr.pairs)
			beta := jb.beta
			if pc > 0 {
				beta = 1
			}
			parallelFor(nt, func(t int) {
				p0, p1 := panels*t/nt, panels*(t+1)/nt
				if p0 < p1 {
					j0 := p0 * kr.nr
					jb.packB(bp[j0*ks:], pc, kcb, jc+j0, min(ncb, p1*kr.nr)-j0)
				}
			})
			parallelFor(nt, func(t int) {
				lo, hi := rowsOf(t)
				buf := *abufs[t]
				ap, tmp := buf[:mc*kcSteps], buf[mc*kcSteps:]
				for ic := lo; ic < hi; ic += mc {
					mcb := min(mc, hi-ic)
					jb.packA(ap, ic, mcb, pc, kcb)
					jb.macro(ap, bp, tmp, ks, ic, mcb, jc, ncb, beta)
				}
			})
		}
	}
}

// parallelFor runs f(0..n-1) on n goroutines (f(0) on this one) and waits.
func parallelFor(n int, f func(t int)) {
	var wg sync.WaitGroup
	for t := 1; t < n; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(t)
		}()
	}
	f(0)
	wg.Wait()
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
func roundUp(a, b int) int { return ceilDiv(a, b) * b }
