package gemm

import "math"

// SgemmBF16 is Sgemm with A and B given as bfloat16 bit patterns (the high
// half of a float32); products accumulate in float32 and C is float32.
func SgemmBF16(transA, transB bool, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) {
	checkArgs("SgemmBF16", transA, transB, m, n, k, lda, ldb, ldc, len(a), len(b), len(c))
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		scaleF32(m, n, beta, c, ldc)
		return
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float32
			for p := 0; p < k; p++ {
				ia, ib := i*lda+p, p*ldb+j
				if transA {
					ia = p*lda + i
				}
				if transB {
					ib = j*ldb + p
				}
				av, bv := a[ia], b[ib]
				s += BF16ToF32(av) * BF16ToF32(bv)
			}
			if beta == 0 {
				c[i*ldc+j] = alpha * s
			} else {
				c[i*ldc+j] = alpha*s + beta*c[i*ldc+j]
			}
		}
	}
}

// BF16ToF32 widens a bfloat16 bit pattern to float32 exactly.
func BF16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// F32ToBF16 rounds f to the nearest bfloat16 (ties to even), keeping NaNs NaN.
func F32ToBF16(f float32) uint16 {
	u := math.Float32bits(f)
	if u&0x7fffffff > 0x7f800000 {
		return uint16(u>>16) | 0x40
	}
	u += 0x7fff + (u>>16)&1
	return uint16(u >> 16)
}
