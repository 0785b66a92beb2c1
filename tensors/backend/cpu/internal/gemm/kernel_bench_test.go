package gemm

import (
	"testing"
	"unsafe"
)

// BenchmarkKernel measures each micro-kernel alone on in-cache panels: the
// ceiling the blocked driver can approach.
func BenchmarkKernel(b *testing.B) {
	for _, kr := range withNarrow(append(append([]kernel(nil), bf16Kernels...), f32Kernels...)) {
		b.Run(kr.name, func(b *testing.B) {
			const ks = 256
			ap := make([]float32, kr.mr*ks)
			bp := make([]float32, kr.nr*ks)
			c := make([]float32, kr.mr*kr.nr)
			for b.Loop() {
				kr.fn(ks, unsafe.Pointer(&ap[0]), unsafe.Pointer(&bp[0]), &c[0], kr.nr, 1, 1)
			}
			flops := 2 * float64(kr.mr*kr.nr*ks)
			if kr.pairs {
				flops *= 2
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
