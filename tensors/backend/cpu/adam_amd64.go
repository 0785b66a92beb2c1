//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

// useVecOptim selects the 8-wide AVX kernels of adam_vector.go (x/sys/cpu also checks that the
// OS saves YMM registers).
var useVecOptim = cpu.X86.HasAVX
