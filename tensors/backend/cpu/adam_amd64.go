//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

// useAVX selects the 8-wide AVX kernel (x/sys/cpu also checks that the OS saves YMM registers).
var useAVX = cpu.X86.HasAVX

// adamAVX runs adamUpdate's arithmetic on n elements, n a multiple of 8 (adam_amd64.s).
//
//go:noescape
func adamAVX(w, grad, m, v *float32, n int, c *adamConsts)

// sgdAVX runs sgdChunk's arithmetic on n elements, n a multiple of 8 (sgd_amd64.s); buf may be
// nil without momentum.
//
//go:noescape
func sgdAVX(w, grad, buf *float32, n int, c *sgdConsts)
