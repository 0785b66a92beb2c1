//go:build arm64 && !purego

package cpu

// useVecOptim selects the NEON kernels of the optimizer updates (every arm64 CPU has NEON).
const useVecOptim = true

// adamVec runs adamUpdate's arithmetic on n elements, n a multiple of 4 (kernels_arm64.s).
//
//go:noescape
func adamVec(w, grad, m, v *float32, n int, c *adamConsts)

// sgdVec runs sgdChunk's arithmetic on n elements, n a multiple of 4 (kernels_arm64.s); buf may
// be nil without momentum.
//
//go:noescape
func sgdVec(w, grad, buf *float32, n int, c *sgdConsts)
