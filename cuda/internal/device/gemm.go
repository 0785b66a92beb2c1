package device

import (
	"github.com/goaccel/goaccel/cuda/internal/cublas"
	"github.com/goaccel/goaccel/tensors/backend"
)

// Gemm implements backend.Core with cuBLAS. cuBLAS is column-major: a row-major matrix is its
// transpose, so C = op(A)·op(B) is computed as Cᵀ = op(B)ᵀ·op(A)ᵀ, swapping the operands.
// float32 runs SGEMM (TF32 tensor cores when allowed), float64 DGEMM; a bfloat16 or float16
// product rounds the operands to that type (unless they already are) and runs GemmEx with float32
// accumulation into the float32 C.
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
			rowsA, rowsB := m, k
			if transA {
				rowsA = k
			}
			if transB {
				rowsB = n
			}
			ah, freeA, err := d.asHalf(half, a, aOff, (batch-1)*strideA+rowsA*lda)
			if err != nil {
				return err
			}
			bh, freeB, err := d.asHalf(half, b, bOff, (batch-1)*strideB+rowsB*ldb)
			if err != nil {
				return err
			}
			t := cublas.R16BF
			if half == backend.F16 {
				t = cublas.R16F
			}
			g.A, g.B, g.AType, g.BType, g.CType = bh, ah, t, t, cublas.R32F
			err = d.blas.GemmEx(g)
			freeA()
			freeB()
			return err
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

// asHalf returns the address of n elements of x from off as dt: x's own when it already holds
// dt, else a rounded copy (release with the returned func, after the product is queued).
func (d *Device) asHalf(dt backend.DType, x *backend.Buffer, off, n int) (uintptr, func(), error) {
	if x.DType == dt {
		return addr(x, off), func() {}, nil
	}
	h, err := d.alloc(dt, n, false)
	if err != nil {
		return 0, nil, err
	}
	if err := d.copy(backend.Strided{Buf: h, Strides: []int{1}}, backend.Strided{Buf: x, Offset: off, Strides: []int{1}}, []int{n}); err != nil {
		return 0, nil, err
	}
	return h.Ptr, func() { d.Release(h) }, nil
}
