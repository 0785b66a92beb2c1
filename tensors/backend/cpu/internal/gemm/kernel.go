package gemm

import "unsafe"

// kernelFunc computes one mr×nr tile acc = Ã·B̃ over kc packed steps (k-pairs
// for pair kernels) and stores C = alpha·acc + beta·C, not reading C when
// beta is 0. a and b point at packed panels, c at the tile's first element.
type kernelFunc func(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

// kernel is one micro-kernel and the panel shape it wants.
type kernel struct {
	name   string
	mr, nr int
	pairs  bool // bf16 panels interleave k in pairs (VDPBF16PS layout)
	fn     kernelFunc
	short  shortTiles // kernels for tiles of fewer rows, reading the same panels
	narrow *kernel    // same family with a narrower tile, for C with few columns
	// strided reads float32 operands in place instead of packed (nil: none; the tile width is nr)
	strided *stridedSet
}

// stridedFunc computes a tile as kernelFunc does from operands at any stride (in elements): B
// k-major (step p's tile columns at b + p·ldb), A k-major (step p's rows at a + p·lda) or
// row-major (row r's k values at a + r·lda), as its stridedSet says.
type stridedFunc func(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)

// stridedSet holds a kernel family's strided variants by rows/4 (1: 4 rows, 2: 8, 3: 12): k for a
// k-major A, r for a row-major A.
type stridedSet struct{ k, r [4]stridedFunc }

// shortTiles are a kernel's variants that compute only the first r rows of a tile (indexed by
// r; nil where there is none): a C whose row count leaves a partial last tile of r rows is
// finished in place, with no scratch tile and no rows computed for nothing.
type shortTiles [13]kernelFunc

// forWidth returns kr, or its narrow variant when C has no more columns than
// that tile: a 10-column C then wastes 6 of 16 lanes instead of 22 of 32.
func (kr kernel) forWidth(n int) kernel {
	if kr.narrow != nil && n <= kr.narrow.nr {
		return *kr.narrow
	}
	return kr
}

// withNarrow lists ks and their narrow variants, for tests and benchmarks.
func withNarrow(ks []kernel) []kernel {
	var all []kernel
	for _, k := range ks {
		all = append(all, k)
		if k.narrow != nil {
			all = append(all, *k.narrow)
		}
	}
	return all
}

// goKernel is the portable kernel: 4×4 tiles of float32 panels, with the
// sixteen accumulators in locals so the compiler can keep them in registers.
var goKernel = kernel{name: "go", mr: 4, nr: 4, fn: sgemmKernelGo}

func sgemmKernelGo(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32) {
	ap := unsafe.Slice((*float32)(a), kc*4)
	bp := unsafe.Slice((*float32)(b), kc*4)
	var c00, c01, c02, c03, c10, c11, c12, c13 float32
	var c20, c21, c22, c23, c30, c31, c32, c33 float32
	for p := 0; p < kc; p++ {
		av := ap[p*4 : p*4+4 : p*4+4]
		bv := bp[p*4 : p*4+4 : p*4+4]
		b0, b1, b2, b3 := bv[0], bv[1], bv[2], bv[3]
		a0, a1, a2, a3 := av[0], av[1], av[2], av[3]
		c00, c01, c02, c03 = c00+a0*b0, c01+a0*b1, c02+a0*b2, c03+a0*b3
		c10, c11, c12, c13 = c10+a1*b0, c11+a1*b1, c12+a1*b2, c13+a1*b3
		c20, c21, c22, c23 = c20+a2*b0, c21+a2*b1, c22+a2*b2, c23+a2*b3
		c30, c31, c32, c33 = c30+a3*b0, c31+a3*b1, c32+a3*b2, c33+a3*b3
	}
	acc := [4][4]float32{{c00, c01, c02, c03}, {c10, c11, c12, c13}, {c20, c21, c22, c23}, {c30, c31, c32, c33}}
	cs := unsafe.Slice(c, 3*ldc+4)
	for r := range 4 {
		row := cs[r*ldc : r*ldc+4 : r*ldc+4]
		for j := range 4 {
			if beta == 0 {
				row[j] = alpha * acc[r][j]
			} else {
				row[j] = alpha*acc[r][j] + beta*row[j]
			}
		}
	}
}

var (
	f32Kernels  []kernel // usable fp32 kernels, fastest first; goKernel is last
	bf16Kernels []kernel // native bf16 kernels, possibly none
)

func init() {
	f32Kernels, bf16Kernels = archKernels()
	f32Kernels = append(f32Kernels, goKernel)
}
