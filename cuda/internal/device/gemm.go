package device

import (
	"github.com/goaccel/goaccel/cuda/internal/cublas"
	"github.com/goaccel/goaccel/tensors/backend"
)

// Gemm implements backend.Core with cuBLAS. cuBLAS is column-major: a row-major matrix is its
// transpose, so C = op(A)·op(B) is computed as Cᵀ = op(B)ᵀ·op(A)ᵀ, swapping the operands.
// float32 runs SGEMM (TF32 tensor cores when allowed), float64 DGEMM; a bfloat16 or float16
// product rounds the operands to that type (unless they already are; only the elements of the
// matrices, packed) and runs GemmEx with float32 accumulation into the float32 C.
func (d *Device) Gemm(lowp backend.DType, transA, transB bool, batch, m, n, k int, alpha float64,
	a *backend.Buffer, aOff, lda, strideA int, b *backend.Buffer, bOff, ldb, strideB int,
	beta float64, c *backend.Buffer, cOff, ldc, strideC int) {
	if batch == 0 || m == 0 || n == 0 {
		return
	}
	if k == 0 {
		// C = β·C; cuBLAS checks the leading dimensions of the empty operands all the same.
		lda, ldb = max(lda, m, n, 1), max(ldb, m, n, 1)
	}
	d.run("matrix product", func() error {
		g := cublas.GemmBatch{TransA: op(transB), TransB: op(transA), M: n, N: m, K: k,
			LDA: ldb, StrideA: int64(strideB), LDB: lda, StrideB: int64(strideA),
			C: addr(c, cOff), LDC: ldc, StrideC: int64(strideC), Batch: batch, Alpha: alpha, Beta: beta}
		half := lowp
		if half != backend.BF16 && half != backend.F16 && (a.DType == backend.BF16 || a.DType == backend.F16) {
			half = a.DType
		}
		switch {
		case half == backend.BF16 || half == backend.F16:
			if k == 0 { // nothing is read: C = β·C
				g.A, g.B, g.AType, g.BType, g.CType = addr(b, bOff), addr(a, aOff), halfType(half), halfType(half), cublas.R32F
				return d.blas.GemmEx(g)
			}
			rowsA, colsA, rowsB, colsB := m, k, k, n
			if transA {
				rowsA, colsA = k, m
			}
			if transB {
				rowsB, colsB = n, k
			}
			ah, err := d.asHalf(half, a, aOff, batch, rowsA, colsA, lda, strideA)
			if err != nil {
				return err
			}
			defer ah.free()
			bh, err := d.asHalf(half, b, bOff, batch, rowsB, colsB, ldb, strideB)
			if err != nil {
				return err
			}
			defer bh.free()
			g.A, g.LDA, g.StrideA = bh.ptr, bh.ld, int64(bh.stride)
			g.B, g.LDB, g.StrideB = ah.ptr, ah.ld, int64(ah.stride)
			g.AType, g.BType, g.CType = halfType(half), halfType(half), cublas.R32F
			return d.blas.GemmEx(g)
		case a.DType == backend.F64:
			g.A, g.B = addr(b, bOff), addr(a, aOff)
			return d.blas.Dgemm(g)
		}
		if on := tf32.Load(); on != d.tf32 {
			if err := d.blas.SetTF32(on); err != nil {
				return err
			}
			d.tf32 = on
		}
		g.A, g.B = addr(b, bOff), addr(a, aOff)
		return d.blas.Sgemm(g)
	})
}

func op(trans bool) cublas.Op {
	if trans {
		return cublas.OpT
	}
	return cublas.OpN
}

func halfType(dt backend.DType) cublas.Type {
	if dt == backend.F16 {
		return cublas.R16F
	}
	return cublas.R16BF
}

// operand is a gemm operand as cuBLAS gets it: its address, leading dimension and batch stride,
// and how to release the copy it may be.
type operand struct {
	ptr        uintptr
	ld, stride int
	free       func()
}

// asHalf returns batch matrices of rows×cols (row-major, ld apart, stride between batches)
// from off in x as dt: x's own when it already holds dt, else a packed rounded copy (ld cols,
// one matrix when stride is 0) that reads only the matrices' elements, never the rest of a row
// of a column slice. Release it with free once the product is queued.
func (d *Device) asHalf(dt backend.DType, x *backend.Buffer, off, batch, rows, cols, ld, stride int) (operand, error) {
	if x.DType == dt {
		return operand{addr(x, off), ld, stride, func() {}}, nil
	}
	nb, packed := batch, rows*cols
	if stride == 0 {
		nb, packed = 1, 0
	}
	h, err := d.alloc(dt, nb*rows*cols, false)
	if err != nil {
		return operand{}, err
	}
	dst := backend.Strided{Buf: h, Strides: []int{rows * cols, cols, 1}}
	src := backend.Strided{Buf: x, Offset: off, Strides: []int{stride, ld, 1}}
	if err := d.copy(dst, src, []int{nb, rows, cols}); err != nil {
		d.Release(h)
		return operand{}, err
	}
	return operand{h.Ptr, cols, packed, func() { d.Release(h) }}, nil
}
