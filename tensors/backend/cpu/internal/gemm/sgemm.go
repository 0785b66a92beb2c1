package gemm

// Sgemm computes C = alpha·op(A)·op(B) + beta·C in float32 on row-major data,
// where op(X) is X, or Xᵀ when transX is set. A is m×k (k×m when transA) with
// leading dimension lda, B is k×n (n×k when transB) with ldb, C is m×n with
// ldc. When beta is 0, C is overwritten without being read (NaNs in C do not
// propagate). It uses up to Threads() goroutines for large problems and panics
// on inconsistent sizes.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if settled("Sgemm", transA, transB, m, n, k, lda, ldb, ldc, len(a), len(b), alpha, beta, c) {
		return
	}
	sgemmWith(f32Kernels[0].forWidth(n), transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SgemmSerial is Sgemm on the calling goroutine alone, for callers that already run one task
// per core (a fused kernel working through many small blocks).
func SgemmSerial(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if settled("SgemmSerial", transA, transB, m, n, k, lda, ldb, ldc, len(a), len(b), alpha, beta, c) {
		return
	}
	sgemmJob(f32Kernels[0].forWidth(n), transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc).run(0, m, 0, n)
}

// settled checks a call's arguments (panicking on bad ones) and finishes the calls that need
// no product: an empty C, or k or alpha zero (C = beta·C). It reports whether the call is done.
func settled(name string, transA, transB bool, m, n, k, lda, ldb, ldc, lenA, lenB int, alpha, beta float32, c []float32) bool {
	checkArgs(name, transA, transB, m, n, k, lda, ldb, ldc, lenA, lenB, len(c))
	if m == 0 || n == 0 {
		return true
	}
	if k == 0 || alpha == 0 {
		scaleF32(m, n, beta, c, ldc)
		return true
	}
	return false
}

// scaleF32 sets C = beta·C, writing zeros when beta is 0.
func scaleF32(m, n int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		if beta != 1 {
			for j := range row {
				row[j] *= beta
			}
		}
	}
}

// sgemmWith runs a checked, non-trivial Sgemm with kernel kr.
func sgemmWith(kr kernel, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemmJob(kr, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc).parallel()
}

func sgemmJob(kr kernel, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) *job {
	mr, nr := kr.mr, kr.nr // the closures capture these, not all of kr
	jb := &job{k: kr, m: m, n: n, kdim: k, alpha: alpha, beta: beta, c: c, ldc: ldc,
		packA: func(dst []float32, i0, mc, p0, kc int) { packAF32(dst, a, lda, transA, mr, i0, mc, p0, kc) },
		packB: func(dst []float32, p0, kc, j0, nc int) { packBF32(dst, b, ldb, transB, nr, p0, kc, j0, nc) },
	}
	// Read operands in place where a strided kernel can: no packing, which costs as much as the
	// product when the matrices are thin (k or n of a few dozen to a few hundred). A row-major A
	// whose rows are a multiple of 4 KiB apart is packed: its twelve rows would share one set of
	// the L1 cache (measured: 1024² 75 GFLOP/s in place, 98 packed).
	if kr.strided != nil && (transA || lda%1024 != 0) {
		jb.a, jb.lda, jb.transA = a, lda, transA
	}
	if kr.strided != nil && !transB {
		jb.b, jb.ldb = b, ldb
	}
	return jb
}
