package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestDgemmMatchesFloat64Reference(t *testing.T) {
	for ci, p := range cases() {
		t.Run(fmt.Sprintf("%d_tA%v_tB%v_%dx%dx%d", ci, p.transA, p.transB, p.m, p.n, p.k), func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 2))
			lda, ldb, ldc, la, lb, lc := p.dims()
			a, b, c := randF64(r, la), randF64(r, lb), randF64(r, lc)
			want := append([]float64(nil), c...)
			refGemm(p, a, lda, b, ldb, want, ldc)
			got := append([]float64(nil), c...)
			if p.beta == 0 {
				for i := range got {
					got[i] = math.NaN()
				}
			}
			Dgemm(p.transA, p.transB, p.m, p.n, p.k, p.alpha, a, lda, b, ldb, p.beta, got, ldc)
			for i := 0; i < p.m; i++ {
				for j := 0; j < p.n; j++ {
					tol := 1e-15*sumAbs(p, a, lda, b, ldb, c, ldc, i, j)*float64(p.k+2) + 1e-300
					if d := math.Abs(got[i*ldc+j] - want[i*ldc+j]); !(d <= tol) {
						t.Fatalf("C[%d,%d] = %v, want %v", i, j, got[i*ldc+j], want[i*ldc+j])
					}
				}
			}
		})
	}
}
