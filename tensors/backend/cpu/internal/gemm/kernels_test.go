package gemm

import (
	"fmt"
	"testing"
)

// bigCases cross the cache-block edges (k > kc in steps, m > mc, n split
// across goroutines) where the blocked loops change beta and offsets.
func bigCases() []problem {
	return []problem{
		{m: 150, n: 70, k: 600, alpha: 1, beta: 0},
		{transA: true, m: 145, n: 97, k: 513, alpha: -1, beta: 0.5, pad: 3},
		{transB: true, m: 33, n: 300, k: 257, alpha: 2, beta: 1},
		{transA: true, transB: true, m: 200, n: 129, k: 1030, alpha: 0.5, beta: -2, pad: 1},
		{transB: true, m: 20, n: 40, k: 37, alpha: 1, beta: 0, pad: 1}, // odd k, even strides: bf16 word packing with a half pair
		{m: 2400, n: 40, k: 50, alpha: 1, beta: 0.5},                   // taller than one shared-A pass
	}
}

// withPackedOnly lists ks and, for each kernel that reads operands in place, a copy that packs
// them all (the path of a row-major A whose rows are 4 KiB apart).
func withPackedOnly(ks []kernel) []kernel {
	var all []kernel
	for _, k := range ks {
		all = append(all, k)
		if k.strided != nil {
			k.strided, k.name = nil, k.name+"-packed"
			all = append(all, k)
		}
	}
	return all
}

func TestEveryKernelMatchesFloat64Reference(t *testing.T) {
	all := append(cases(), bigCases()...)
	for _, kr := range withPackedOnly(withNarrow(f32Kernels)) {
		for ci, p := range all {
			t.Run(fmt.Sprintf("%s/%d_tA%v_tB%v_%dx%dx%d", kr.name, ci, p.transA, p.transB, p.m, p.n, p.k), func(t *testing.T) {
				checkSgemm(t, func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
					checkArgs("test", transA, transB, m, n, k, lda, ldb, ldc, len(a), len(b), len(c))
					if m == 0 || n == 0 || k == 0 {
						Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
						return
					}
					sgemmWith(kr, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
				}, p, uint64(ci))
			})
		}
	}
}

func TestEveryBF16PathMatchesRoundedReference(t *testing.T) {
	all := append(cases(), bigCases()...)
	paths := withNarrow(append(append([]kernel(nil), bf16Kernels...), f32Kernels...))
	for _, kr := range paths {
		for ci, p := range all {
			t.Run(fmt.Sprintf("%s/%d_tA%v_tB%v_%dx%dx%d", kr.name, ci, p.transA, p.transB, p.m, p.n, p.k), func(t *testing.T) {
				checkBF16(t, func(transA, transB bool, m, n, k int, alpha float32, a []uint16, lda int, b []uint16, ldb int, beta float32, c []float32, ldc int) {
					if m == 0 || n == 0 || k == 0 {
						SgemmBF16(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
						return
					}
					sbgemmWith(kr, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
				}, p, uint64(ci))
			})
		}
	}
}

func TestSgemmSplitsAcrossThreadsWithSameResult(t *testing.T) {
	defer SetThreads(0)
	for _, nt := range []int{1, 2, 3, 7} {
		SetThreads(nt)
		for ci, p := range bigCases() {
			t.Run(fmt.Sprintf("threads=%d/%d", nt, ci), func(t *testing.T) { checkSgemm(t, Sgemm, p, uint64(ci)) })
		}
	}
}

func TestEveryParallelSchemeMatchesReference(t *testing.T) {
	schemes := map[string]func(*job){
		"shared2": func(jb *job) { jb.runShared(2, 0, jb.m) },
		"shared5": func(jb *job) { jb.runShared(5, 0, jb.m) },
		"passes":  func(jb *job) { jb.runShared(2, 0, jb.m/3); jb.runShared(3, jb.m/3, jb.m) },
		"serial":  func(jb *job) { jb.run(0, jb.m, 0, jb.n) },
		"quadrants": func(jb *job) {
			jb.run(0, jb.m/2, 0, jb.n/2)
			jb.run(jb.m/2, jb.m, 0, jb.n/2)
			jb.run(0, jb.m, jb.n/2, jb.n)
		},
	}
	for name, run := range schemes {
		for _, kr := range withPackedOnly(f32Kernels[:1]) {
			for ci, p := range bigCases() {
				t.Run(fmt.Sprintf("%s/%s/%d", name, kr.name, ci), func(t *testing.T) {
					checkSgemm(t, func(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
						run(sgemmJob(kr, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc))
					}, p, uint64(ci))
				})
			}
		}
	}
}

func TestKernelsAvailable(t *testing.T) {
	var names []string
	for _, k := range withNarrow(append(append([]kernel(nil), bf16Kernels...), f32Kernels...)) {
		names = append(names, k.name)
	}
	t.Logf("kernels: %v", names)
	if f32Kernels[len(f32Kernels)-1].name != "go" {
		t.Fatalf("portable kernel missing from %v", names)
	}
}

func TestSgemmConcurrentCallsDoNotShareScratch(t *testing.T) {
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for ci, p := range bigCases() {
				// t.Run may be called from several goroutines; each subtest fails on its own.
				t.Run(fmt.Sprintf("g%d/%d", g, ci), func(t *testing.T) { checkSgemm(t, Sgemm, p, uint64(ci+10*g)) })
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}
