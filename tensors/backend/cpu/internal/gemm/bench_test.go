package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goaccel/goaccel/internal/half"
)

// shape is one benchmarked GEMM: C[m×n] = op(A)·op(B) with inner size k.
type shape struct {
	name           string
	transA, transB bool
	m, n, k        int
}

// benchShapes are the square sizes and the MLP 784-512-512-10 (batch 128)
// forward and backward GEMMs, as nn.Linear issues them (y = x·Wᵀ,
// dx = dy·W, dW = dyᵀ·x), and the char GPT's. Names match bench/gemm_torch.py.
func benchShapes() []shape {
	s := []shape{}
	for _, n := range []int{256, 512, 1024, 2048} {
		s = append(s, shape{name: fmt.Sprintf("N=%d", n), m: n, n: n, k: n})
	}
	return append(s,
		shape{"fwd1_128x784x512_NT", false, true, 128, 512, 784},
		shape{"fwd2_128x512x512_NT", false, true, 128, 512, 512},
		shape{"fwd3_128x512x10_NT", false, true, 128, 10, 512},
		shape{"dx2_128x512x512_NN", false, false, 128, 512, 512},
		shape{"dx3_128x10x512_NN", false, false, 128, 512, 10},
		shape{"dW1_512x128x784_TN", true, false, 512, 784, 128},
		shape{"dW2_512x128x512_TN", true, false, 512, 512, 128},
		shape{"dW3_10x128x512_TN", true, false, 10, 512, 128},
		// The char GPT's (bench/gpt.sh: 1024 tokens, 128 features) linear layers.
		shape{"gpt_qkv_1024x128x384_NT", false, true, 1024, 384, 128},
		shape{"gpt_fc_1024x128x512_NT", false, true, 1024, 512, 128},
		shape{"gpt_proj_1024x512x128_NT", false, true, 1024, 128, 512},
		shape{"gpt_dx_1024x384x128_NN", false, false, 1024, 128, 384},
		shape{"gpt_dW_384x1024x128_TN", true, false, 384, 128, 1024},
		shape{"gpt_dWproj_128x1024x512_TN", true, false, 128, 512, 1024},
		// nanoGPT's shakespeare-char size (bench/gpt.sh: 2048 tokens, 384 features): the
		// attention's input projection, the MLP's two layers, and their backward products.
		shape{"sh_qkv_2048x384x1152_NT", false, true, 2048, 1152, 384},
		shape{"sh_fc_2048x384x1536_NT", false, true, 2048, 1536, 384},
		shape{"sh_proj_2048x1536x384_NT", false, true, 2048, 384, 1536},
		shape{"sh_dx_2048x1536x384_NN", false, false, 2048, 384, 1536},
		shape{"sh_dxfc_2048x384x1536_NN", false, false, 2048, 1536, 384},
		shape{"sh_dW_1536x2048x384_TN", true, false, 1536, 384, 2048},
		shape{"sh_dWproj_384x2048x1536_TN", true, false, 384, 1536, 2048},
	)
}

func operands(s shape) (a []float32, lda int, b []float32, ldb int, c []float32) {
	r := rand.New(rand.NewPCG(1, 2))
	fill := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = r.Float32() - 0.5
		}
		return x
	}
	lda, ldb = s.k, s.n
	if s.transA {
		lda = s.m
	}
	if s.transB {
		ldb = s.k
	}
	return fill(s.m * s.k), lda, fill(s.k * s.n), ldb, make([]float32, s.m*s.n)
}

// reportGFLOPS reports the mean rate and the rate of the fastest single
// call: on a machine shared with other work the best call is the one least
// disturbed, which makes it the steadier figure to compare.
func reportGFLOPS(b *testing.B, s shape, best time.Duration) {
	flops := 2 * float64(s.m) * float64(s.n) * float64(s.k)
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	b.ReportMetric(flops/best.Seconds()/1e9, "best-GFLOP/s")
}

// BenchmarkSgemm uses Threads() goroutines (set GOMAXPROCS with -cpu).
func BenchmarkSgemm(b *testing.B) {
	for _, s := range benchShapes() {
		a, lda, bm, ldb, c := operands(s)
		b.Run(s.name, func(b *testing.B) {
			best := time.Duration(math.MaxInt64)
			for b.Loop() {
				t0 := time.Now()
				Sgemm(s.transA, s.transB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
				best = min(best, time.Since(t0))
			}
			reportGFLOPS(b, s, best)
		})
	}
}

// BenchmarkSgemmBF16 is BenchmarkSgemm on bfloat16 inputs, for the speed-up against fp32.
func BenchmarkSgemmBF16(b *testing.B) {
	for _, s := range benchShapes() {
		a32, lda, b32, ldb, c := operands(s)
		a, bm := make([]uint16, len(a32)), make([]uint16, len(b32))
		for i, v := range a32 {
			a[i] = half.F32ToBF16(v)
		}
		for i, v := range b32 {
			bm[i] = half.F32ToBF16(v)
		}
		b.Run(s.name, func(b *testing.B) {
			best := time.Duration(math.MaxInt64)
			for b.Loop() {
				t0 := time.Now()
				SgemmBF16(s.transA, s.transB, s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
				best = min(best, time.Since(t0))
			}
			reportGFLOPS(b, s, best)
		})
	}
}
