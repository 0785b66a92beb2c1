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
	narrow *kernel // same family with a narrower tile, for C with few columns
}

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

// goKernel is the portable kernel: 4×8 tiles of float32 panels.
var goKernel = kernel{name: "go", mr: 4, nr: 8, fn: sgemmKernelGo}

func sgemmKernelGo(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32) {
	const mr, nr = 4, 8
	ap := unsafe.Slice((*float32)(a), kc*mr)
	bp := unsafe.Slice((*float32)(b), kc*nr)
	var acc [mr][nr]float32
	for p := 0; p < kc; p++ {
		av := ap[p*mr : p*mr+mr : p*mr+mr]
		bv := bp[p*nr : p*nr+nr : p*nr+nr]
		for r := range mr {
			x := av[r]
			row := &acc[r]
			for j := range nr {
				row[j] += x * bv[j]
			}
		}
	}
	cs := unsafe.Slice(c, (mr-1)*ldc+nr)
	for r := range mr {
		row := cs[r*ldc : r*ldc+nr]
		for j := range nr {
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
