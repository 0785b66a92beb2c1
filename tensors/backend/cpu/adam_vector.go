//go:build (amd64 || arm64) && !purego

package cpu

// The optimizer update kernels: adam_amd64.s and sgd_amd64.s (AVX, eight lanes) and
// kernels_arm64.s (NEON, four), where useVecOptim says they run; adamUpdate and sgdChunk hand
// them a multiple of 8 elements.

// adamVec runs adamUpdate's arithmetic on n elements, n a multiple of 8.
//
//go:noescape
func adamVec(w, grad, m, v *float32, n int, c *adamConsts)

// sgdVec runs sgdChunk's arithmetic on n elements, n a multiple of 8; buf may be nil without
// momentum.
//
//go:noescape
func sgdVec(w, grad, buf *float32, n int, c *sgdConsts)
