package gemm

// SgemmBF16 is Sgemm with A and B given as bfloat16 bit patterns (the high
// half of a float32); products accumulate in float32 and C is float32.
func SgemmBF16(transA, transB bool, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) {
	if settled("SgemmBF16", transA, transB, m, n, k, lda, ldb, ldc, len(a), len(b), alpha, beta, c) {
		return
	}
	kr := f32Kernels[0]
	if len(bf16Kernels) > 0 {
		kr = bf16Kernels[0]
	}
	sbgemmWith(kr.forWidth(n), transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sbgemmWith runs a checked, non-trivial SgemmBF16 with kernel kr: a pair
// kernel reads bf16 panels, a float32 kernel reads panels widened while packing.
func sbgemmWith(kr kernel, transA, transB bool, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) {
	mr, nr, pairs := kr.mr, kr.nr, kr.pairs // the closures capture these, not all of kr
	jb := job{k: kr, m: m, n: n, kdim: k, alpha: alpha, beta: beta, c: c, ldc: ldc,
		packA: func(dst []float32, i0, mc, p0, kc int) {
			packABF16(dst, a, lda, transA, pairs, mr, i0, mc, p0, kc)
		},
		packB: func(dst []float32, p0, kc, j0, nc int) {
			packBBF16(dst, b, ldb, transB, pairs, nr, p0, kc, j0, nc)
		},
	}
	jb.parallel()
}
