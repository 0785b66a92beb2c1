//go:build amd64 && !purego

package gemm

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:generate go run gen_kernels.go

//go:noescape
func sgemmKernelAVX512(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sbgemmKernelAVX512(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelAVX512x16(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sbgemmKernelAVX512x16(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

// Short-tile variants: 4 and 8 rows of a 12-row panel, for a C whose last row tile is partial.
//
//go:noescape
func sgemmKernelAVX512r4(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelAVX512r8(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelAVX512x16r4(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelAVX512x16r8(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

// Strided kernels (gen_kernels.go's avx512Strided): operands read in place, A k-major (K) or
// row-major (R), B k-major, at any stride; 12, 8 and 4 rows by 32 or 16 columns.
//
//go:noescape
func sgemmKernelK12x32(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelR12x32(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelK12x16(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelR12x16(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelK8x32(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelR8x32(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelK8x16(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelR8x16(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelK4x32(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelR4x32(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelK4x16(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelR4x16(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

//go:noescape
func sgemmKernelAVX2(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

// transpose8x8 transposes blocks 8×8 blocks of an 8-row strip:
// dst[(8b+c)*dstStride + r] = src[r*srcStride + 8b + c]. Needs AVX.
//
//go:noescape
func transpose8x8(dst *float32, dstStride int, src *float32, srcStride int, blocks int)

// transpose4x8 is transpose8x8 for a 4-row strip:
// dst[(8b+c)*dstStride + r] = src[r*srcStride + 8b + c] for r < 4. Needs AVX.
//
//go:noescape
func transpose4x8(dst *float32, dstStride int, src *float32, srcStride int, blocks int)

// zipRows16 zips two bf16 rows: dst[c] = r0[c] | r1[c]<<16 for c < 16·n16. Needs AVX2.
//
//go:noescape
func zipRows16(dst *uint32, r0, r1 *uint16, n16 int)

// copyRows8 copies rows runs of 8·width8 floats, srcStride apart in src, to consecutive rows of
// dst: dst[r*8*width8 + j] = src[r*srcStride + j]. Needs AVX.
//
//go:noescape
func copyRows8(dst, src *float32, srcStride, rows, width8 int)

// haveTranspose8, haveZip16 and haveCopyRows8 report whether transpose8x8, zipRows16 and
// copyRows8 may run on this CPU.
var (
	haveTranspose8 = cpu.X86.HasAVX
	haveZip16      = cpu.X86.HasAVX2
	haveCopyRows8  = cpu.X86.HasAVX
)

// archKernels lists the assembly kernels this CPU can run, fastest first;
// x/sys/cpu also checks that the OS saves the wider registers.
func archKernels() (f32 []kernel, bf16 []kernel) {
	if cpu.X86.HasAVX512F {
		f32 = append(f32, kernel{name: "avx512", mr: 12, nr: 32, fn: sgemmKernelAVX512,
			short: shortTiles{4: sgemmKernelAVX512r4, 8: sgemmKernelAVX512r8},
			strided: &stridedSet{
				k: [4]stridedFunc{1: sgemmKernelK4x32, 2: sgemmKernelK8x32, 3: sgemmKernelK12x32},
				r: [4]stridedFunc{1: sgemmKernelR4x32, 2: sgemmKernelR8x32, 3: sgemmKernelR12x32}},
			narrow: &kernel{name: "avx512x16", mr: 12, nr: 16, fn: sgemmKernelAVX512x16,
				short: shortTiles{4: sgemmKernelAVX512x16r4, 8: sgemmKernelAVX512x16r8},
				strided: &stridedSet{
					k: [4]stridedFunc{1: sgemmKernelK4x16, 2: sgemmKernelK8x16, 3: sgemmKernelK12x16},
					r: [4]stridedFunc{1: sgemmKernelR4x16, 2: sgemmKernelR8x16, 3: sgemmKernelR12x16}}}})
		if cpu.X86.HasAVX512BF16 {
			bf16 = append(bf16, kernel{name: "avx512bf16", mr: 12, nr: 32, pairs: true, fn: sbgemmKernelAVX512,
				narrow: &kernel{name: "avx512bf16x16", mr: 12, nr: 16, pairs: true, fn: sbgemmKernelAVX512x16}})
		}
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		f32 = append(f32, kernel{name: "avx2", mr: 6, nr: 16, fn: sgemmKernelAVX2})
	}
	return f32, bf16
}
