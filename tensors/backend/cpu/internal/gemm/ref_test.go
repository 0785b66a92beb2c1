package gemm

import (
	"math"
	"math/rand/v2"
)

// problem is one GEMM call's inputs, with strided (padded) operands when pad > 0.
type problem struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float64
	pad            int
}

func (p problem) dims() (lda, ldb, ldc, la, lb, lc int) {
	ra, ca := p.m, p.k
	if p.transA {
		ra, ca = p.k, p.m
	}
	rb, cb := p.k, p.n
	if p.transB {
		rb, cb = p.n, p.k
	}
	lda, ldb, ldc = ca+p.pad, cb+p.pad, p.n+p.pad
	return lda, ldb, ldc, ra * lda, rb * ldb, p.m * ldc
}

func randF64(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.Float64()*2 - 1
	}
	return x
}

// refGemm is the float64 triple loop every path is checked against.
func refGemm(p problem, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	for i := 0; i < p.m; i++ {
		for j := 0; j < p.n; j++ {
			var s float64
			for q := 0; q < p.k; q++ {
				s += at(a, lda, p.transA, i, q) * at(b, ldb, p.transB, q, j)
			}
			if p.beta == 0 {
				c[i*ldc+j] = p.alpha * s
			} else {
				c[i*ldc+j] = p.alpha*s + p.beta*c[i*ldc+j]
			}
		}
	}
}

// sumAbs bounds the rounding error of one output element: |alpha|·Σ|a||b| + |beta·c|.
func sumAbs(p problem, a []float64, lda int, b []float64, ldb int, c []float64, ldc, i, j int) float64 {
	var s float64
	for q := 0; q < p.k; q++ {
		s += math.Abs(at(a, lda, p.transA, i, q) * at(b, ldb, p.transB, q, j))
	}
	s *= math.Abs(p.alpha)
	if p.beta != 0 {
		s += math.Abs(p.beta * c[i*ldc+j])
	}
	return s
}

func toF32(x []float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(v)
	}
	return y
}

// cases lists the shapes every path is checked on: all four transposes,
// sizes 1..67 around the tile edges, alpha/beta variants and padded strides.
func cases() []problem {
	var ps []problem
	sizes := [][3]int{{1, 1, 1}, {1, 7, 3}, {5, 1, 9}, {3, 4, 1}, {2, 3, 2}, {13, 17, 19}, {31, 33, 35},
		{12, 32, 16}, {24, 64, 40}, {6, 16, 5}, {7, 17, 67}, {67, 67, 67}, {64, 48, 1}, {49, 95, 130}, {1, 67, 300}, {67, 1, 300},
		{32, 64, 144}, {16, 32, 7}} // partial last row tiles of 8 and 4 rows, full panels
	ab := [][2]float64{{1, 0}, {1, 1}, {-0.5, 2}, {2.5, -1}, {0, 0.5}}
	for si, s := range sizes {
		for t := 0; t < 4; t++ {
			v := ab[(si+t)%len(ab)]
			ps = append(ps, problem{transA: t&1 != 0, transB: t&2 != 0, m: s[0], n: s[1], k: s[2], alpha: v[0], beta: v[1], pad: (si + t) % 3 * 2})
		}
	}
	for _, n := range []int{0, 8, 15} {
		ps = append(ps, problem{m: n, n: 9, k: 0, alpha: 1, beta: 0.5}, problem{m: 4, n: n, k: 3, alpha: 1, beta: 1})
	}
	return ps
}

// at reads element (i, j) of op(X) for row-major X with leading dimension ld.
func at(x []float64, ld int, trans bool, i, j int) float64 {
	if trans {
		return x[j*ld+i]
	}
	return x[i*ld+j]
}
