package gemm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goaccel/goaccel/internal/half"
)

type bf16Func func(transA, transB bool, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int)

func toBF16(x []float64) []uint16 {
	y := make([]uint16, len(x))
	for i, v := range x {
		y[i] = half.F32ToBF16(float32(v))
		x[i] = float64(half.BF16ToF32(y[i]))
	}
	return y
}

// checkBF16 compares f with the float64 reference run on inputs rounded to
// bfloat16, so only float32 accumulation error is allowed.
func checkBF16(t *testing.T, f bf16Func, p problem, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 3))
	lda, ldb, ldc, la, lb, lc := p.dims()
	a, b, c := randF64(r, la), randF64(r, lb), randF64(r, lc)
	a16, b16, c32 := toBF16(a), toBF16(b), toF32(c)
	roundTo32(c, c32)
	poisonUnlessBeta(p, c32)
	want := append([]float64(nil), c...)
	refGemm(p, a, lda, b, ldb, want, ldc)
	f(p.transA, p.transB, p.m, p.n, p.k, float32(p.alpha), a16, lda, b16, ldb, float32(p.beta), c32, ldc)
	for i := 0; i < p.m; i++ {
		for j := 0; j < p.n; j++ {
			requireClose(t, p, i, j, float64(c32[i*ldc+j]), want, a, lda, b, ldb, c, ldc)
		}
	}
}

func TestSgemmBF16MatchesBF16RoundedReference(t *testing.T) {
	for ci, p := range cases() {
		t.Run(fmt.Sprintf("%d_tA%v_tB%v_%dx%dx%d", ci, p.transA, p.transB, p.m, p.n, p.k), func(t *testing.T) {
			checkBF16(t, SgemmBF16, p, uint64(ci))
		})
	}
}

func TestSgemmBF16AcceptsOddlyAlignedViews(t *testing.T) {
	// A view starting one element into a buffer is only 2-byte aligned; the
	// 32-bit word packing must not be used on it.
	p := problem{m: 13, n: 35, k: 20, alpha: 1, beta: 0}
	checkBF16(t, func(transA, transB bool, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) {
		a1 := append(make([]uint16, 1, len(a)+1), a...)[1:]
		b1 := append(make([]uint16, 1, len(b)+1), b...)[1:]
		SgemmBF16(transA, transB, m, n, k, alpha, a1, lda, b1, ldb, beta, c, ldc)
	}, p, 7)
}
