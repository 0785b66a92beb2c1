//go:build arm64 && !purego

package gemm

import "unsafe"

// sgemmKernelNEON computes an 8×12 tile (kernels_arm64.s); every arm64 CPU has NEON.
//
//go:noescape
func sgemmKernelNEON(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

// sgemmKernelNEONr4 computes the first 4 rows of an 8×12 tile.
//
//go:noescape
func sgemmKernelNEONr4(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)

// archKernels lists the NEON kernel. bfloat16 operands are widened while
// packing and run on it: the BF16 extension's BFMMLA is not used yet.
func archKernels() (f32 []kernel, bf16 []kernel) {
	return []kernel{{name: "neon", mr: 8, nr: 12, fn: sgemmKernelNEON,
		short: shortTiles{4: sgemmKernelNEONr4}}}, nil
}
