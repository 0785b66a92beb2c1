package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

type sgemmFunc func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)

// checkSgemm runs f on p and compares every element of C, padding included,
// with the float64 reference; padding must be left untouched.
func checkSgemm(t *testing.T, f sgemmFunc, p problem, seed uint64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	lda, ldb, ldc, la, lb, lc := p.dims()
	a, b, c := randF64(r, la), randF64(r, lb), randF64(r, lc)
	// float32 inputs are the truth; round them first so only accumulation error remains.
	a32, b32, c32 := toF32(a), toF32(b), toF32(c)
	roundTo32(a, a32)
	roundTo32(b, b32)
	roundTo32(c, c32)
	poisonUnlessBeta(p, c32)
	want := append([]float64(nil), c...)
	refGemm(p, a, lda, b, ldb, want, ldc)
	f(p.transA, p.transB, p.m, p.n, p.k, float32(p.alpha), a32, lda, b32, ldb, float32(p.beta), c32, ldc)
	for i := 0; i < p.m; i++ {
		for j := 0; j < ldc && i*ldc+j < len(c32); j++ {
			got := float64(c32[i*ldc+j])
			if j >= p.n {
				untouched := math.IsNaN(got)
				if p.beta != 0 {
					untouched = got == c[i*ldc+j]
				}
				if !untouched {
					t.Fatalf("%+v: padding C[%d,%d] changed to %v", p, i, j, got)
				}
				continue
			}
			requireClose(t, p, i, j, got, want, a, lda, b, ldb, c, ldc)
		}
	}
}

// poisonUnlessBeta fills C with NaNs when beta is 0: Sgemm must then never read C.
func poisonUnlessBeta(p problem, c32 []float32) {
	if p.beta != 0 {
		return
	}
	for i := range c32 {
		c32[i] = float32(math.NaN())
	}
}

// requireClose fails the test when got, the computed C[i,j], is further from the float64
// reference want than the accumulation error bound for this element allows.
func requireClose(t *testing.T, p problem, i, j int, got float64, want, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	t.Helper()
	tol := 1e-6*sumAbs(p, a, lda, b, ldb, c, ldc, i, j)*float64(p.k+2) + 1e-30
	if d := math.Abs(got - want[i*ldc+j]); !(d <= tol) {
		t.Fatalf("%+v: C[%d,%d] = %v, want %v (diff %g > tol %g)", p, i, j, got, want[i*ldc+j], d, tol)
	}
}

func TestSgemmMatchesFloat64Reference(t *testing.T) {
	for ci, p := range cases() {
		t.Run(fmt.Sprintf("%d_tA%v_tB%v_%dx%dx%d", ci, p.transA, p.transB, p.m, p.n, p.k), func(t *testing.T) {
			checkSgemm(t, Sgemm, p, uint64(ci))
		})
	}
}

func TestSgemmSerialMatchesFloat64Reference(t *testing.T) {
	for ci, p := range cases() {
		t.Run(fmt.Sprintf("%d_tA%v_tB%v_%dx%dx%d", ci, p.transA, p.transB, p.m, p.n, p.k), func(t *testing.T) {
			checkSgemm(t, SgemmSerial, p, uint64(ci))
		})
	}
}

func TestSgemmPanicsOnShortSlice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a 2×2 A given 3 elements")
		}
	}()
	Sgemm(false, false, 2, 2, 2, 1, make([]float32, 3), 2, make([]float32, 4), 2, 0, make([]float32, 4), 2)
}

func roundTo32(x []float64, x32 []float32) {
	for i, v := range x32 {
		x[i] = float64(v)
	}
}
