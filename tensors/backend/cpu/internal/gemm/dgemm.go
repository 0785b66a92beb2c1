package gemm

// Dgemm is Sgemm in float64, meant for gradient checks: correct and
// cache-blocked, but without assembly kernels.
func Dgemm(transA, transB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	checkArgs("Dgemm", transA, transB, m, n, k, lda, ldb, ldc, len(a), len(b), len(c))
	if m == 0 || n == 0 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
		} else if beta != 1 {
			for j := range row {
				row[j] *= beta
			}
		}
	}
	if k == 0 || alpha == 0 {
		return
	}
	const blk = 64
	for p0 := 0; p0 < k; p0 += blk {
		p1 := min(p0+blk, k)
		for i := 0; i < m; i++ {
			row := c[i*ldc : i*ldc+n]
			for p := p0; p < p1; p++ {
				ia := i*lda + p
				if transA {
					ia = p*lda + i
				}
				av := alpha * a[ia]
				if av == 0 {
					continue
				}
				if !transB {
					brow := b[p*ldb : p*ldb+n]
					for j, bv := range brow {
						row[j] += av * bv
					}
				} else {
					for j := range row {
						row[j] += av * b[j*ldb+p]
					}
				}
			}
		}
	}
}
