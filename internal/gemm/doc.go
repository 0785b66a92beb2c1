// Package gemm is goaccel's dense matrix-multiply engine for the CPU backend.
//
// It computes C = alpha·op(A)·op(B) + beta·C on row-major slices, BLAS style,
// with packed panels, cache blocking, goroutine parallelism and Go-assembly
// micro-kernels (AVX-512 or AVX2+FMA on amd64; pure Go elsewhere or with the
// purego build tag).
//
//	// c (2×2) = a (2×3) · b (3×2)
//	gemm.Sgemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2)
package gemm
