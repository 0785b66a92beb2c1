//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

// useVecOptim selects the 8-wide AVX kernel (x/sys/cpu also checks that the OS saves YMM registers).
var useVecOptim = cpu.X86.HasAVX

// adamVec runs adamUpdate's arithmetic on n elements, n a multiple of 8 (adam_amd64.s).
//
//go:noescape
func adamVec(w, grad, m, v *float32, n int, c *adamConsts)

// sgdVec runs sgdChunk's arithmetic on n elements, n a multiple of 8 (sgd_amd64.s); buf may be
// nil without momentum.
//
//go:noescape
func sgdVec(w, grad, buf *float32, n int, c *sgdConsts)
