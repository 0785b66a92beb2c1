package cpu

import (
	"github.com/goaccel/goaccel/internal/half"
	"github.com/goaccel/goaccel/tensors/backend"
	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/gemm"
)

// Gemm implements backend.Backend on top of tensors/backend/cpu/internal/gemm.
func (c *CPU) Gemm(lowp backend.DType, transA, transB bool, batch, m, n, k int, alpha float64,
	a *backend.Buffer, aOff, lda, strideA int, b *backend.Buffer, bOff, ldb, strideB int,
	beta float64, cb *backend.Buffer, cOff, ldc, strideC int) {
	rowsA, colsA, rowsB, colsB := m, k, k, n
	if transA {
		rowsA, colsA = k, m
	}
	if transB {
		rowsB, colsB = n, k
	}
	lenA, lenB := matrixSpan(batch, rowsA, colsA, lda, strideA), matrixSpan(batch, rowsB, colsB, ldb, strideB)
	switch {
	case lowp == backend.BF16 || lowp == backend.F16 || a.DType == backend.BF16 || a.DType == backend.F16:
		dt := lowp
		if dt != backend.BF16 && dt != backend.F16 {
			dt = a.DType
		}
		ah, ownA := c.toHalf(dt, a, aOff, lenA)
		bh, ownB := c.toHalf(dt, b, bOff, lenB)
		for i := 0; i < batch; i++ {
			cs := cb.F32[cOff+i*strideC:]
			if dt == backend.BF16 {
				gemm.SgemmBF16(transA, transB, m, n, k, float32(alpha), from(ah.U16, i*strideA), lda, from(bh.U16, i*strideB), ldb, float32(beta), cs, ldc)
				continue
			}
			// float16 products are exact in float32, so widening then Sgemm is the same
			// arithmetic as a half-precision unit with float32 accumulation.
			gemm.Sgemm(transA, transB, m, n, k, float32(alpha), from(ah.F32, i*strideA), lda, from(bh.F32, i*strideB), ldb, float32(beta), cs, ldc)
		}
		if ownA {
			c.Release(ah)
		}
		if ownB {
			c.Release(bh)
		}
	case a.DType == backend.F64:
		for i := 0; i < batch; i++ {
			gemm.Dgemm(transA, transB, m, n, k, alpha, a.F64[aOff+i*strideA:], lda, b.F64[bOff+i*strideB:], ldb, beta, cb.F64[cOff+i*strideC:], ldc)
		}
	default:
		for i := 0; i < batch; i++ {
			gemm.Sgemm(transA, transB, m, n, k, float32(alpha), a.F32[aOff+i*strideA:], lda, b.F32[bOff+i*strideB:], ldb, float32(beta), cb.F32[cOff+i*strideC:], ldc)
		}
	}
}

// from is s from off on: the k-th matrix of a rounded operand, which holds nothing when the
// product's inner dimension (or its rows or columns) is empty.
func from[T any](s []T, off int) []T { return s[min(off, len(s)):] }

// matrixSpan is the elements from a batch of rows×cols matrices' first element to their last: a
// column slice's last row ends at its last column, not at the row stride.
func matrixSpan(batch, rows, cols, ld, stride int) int {
	if rows == 0 || cols == 0 {
		return 0
	}
	return (batch-1)*stride + (rows-1)*ld + cols
}

// toHalf returns n elements from off rounded to dt: bfloat16 bits in U16, or float16-rounded
// values widened back to float32 in F32 (what the float16 path multiplies). owned reports
// whether the result is a new buffer (to release) rather than a view of src.
func (c *CPU) toHalf(dt backend.DType, src *backend.Buffer, off, n int) (h *backend.Buffer, owned bool) {
	if dt == backend.BF16 && src.DType == backend.BF16 {
		return &backend.Buffer{DType: backend.BF16, Len: n, U16: src.U16[off : off+n]}, false
	}
	if dt == backend.BF16 {
		h := c.AllocUninit(backend.BF16, n)
		switch src.DType {
		case backend.F32:
			s := src.F32[off : off+n]
			parallelFor(n, n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					h.U16[i] = half.F32ToBF16(s[i])
				}
			})
		default:
			for i := 0; i < n; i++ {
				h.U16[i] = half.F32ToBF16(float32(loadF64(src, off+i)))
			}
		}
		return h, true
	}
	w := c.AllocUninit(backend.F32, n)
	switch src.DType {
	case backend.F32:
		s := src.F32[off : off+n]
		parallelFor(n, n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				w.F32[i] = roundF16(s[i])
			}
		})
	case backend.F16:
		for i, h := range src.U16[off : off+n] {
			w.F32[i] = half.F16ToF32(h)
		}
	default:
		for i := 0; i < n; i++ {
			w.F32[i] = half.F16ToF32(half.F32ToF16(float32(loadF64(src, off+i))))
		}
	}
	return w, true
}
