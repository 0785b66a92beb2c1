package gemm

import (
	"sync"
	"unsafe"
)

// Cache blocking, in k-steps and rows/columns: a kcSteps×nr B micro-panel
// stays in L1 while the kernel walks an mc×kc block of A held in L2; the
// kc×nc block of B lives in L2/L3.
var (
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

// run computes the block C[i0:i1, j0:j1] over all of k, on this goroutine.
func (jb *job) run(i0, i1, j0, j1 int) {
	kr := jb.k
	kcElems, unit := kcSteps, 4
	if kr.pairs {
		kcElems, unit = 2*kcSteps, 8
	}
	// Equal k-blocks: 784 = 4×196 rather than 3×256 + 16, whose thin last
	// block would pay a full C update for little work.
	kcElems = min(kcElems, roundUp(ceilDiv(jb.kdim, ceilDiv(jb.kdim, kcElems)), unit))
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

// parallel splits C into one block per goroutine along whichever of m or n
// has more kernel tiles, aligned to tiles, and waits for all of them.
func (jb *job) parallel() {
	kr := jb.k
	nt := Threads()
	// Below ~4 MFLOP per goroutine the start-up and duplicated packing cost more than they win.
	if work := 2 * jb.m * jb.n * jb.kdim; work/(4<<20) < nt {
		nt = max(1, work/(4<<20))
	}
	mt, nt2 := ceilDiv(jb.m, kr.mr), ceilDiv(jb.n, kr.nr)
	if nt <= 1 || max(mt, nt2) < 2 {
		jb.run(0, jb.m, 0, jb.n)
		return
	}
	splitM := mt >= nt2
	tiles, unit, size := nt2, kr.nr, jb.n
	if splitM {
		tiles, unit, size = mt, kr.mr, jb.m
	}
	nt = min(nt, tiles)
	var wg sync.WaitGroup
	for t := 0; t < nt; t++ {
		lo := min(size, tiles*t/nt*unit)
		hi := min(size, tiles*(t+1)/nt*unit)
		if t == nt-1 {
			hi = size
		}
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if splitM {
				jb.run(lo, hi, 0, jb.n)
			} else {
				jb.run(0, jb.m, lo, hi)
			}
		}()
	}
	wg.Wait()
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
func roundUp(a, b int) int { return ceilDiv(a, b) * b }
