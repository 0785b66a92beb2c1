//go:build arm64 && !purego

package cpu

// useVecOptim selects the NEON kernels of adam_vector.go (every arm64 CPU has NEON).
const useVecOptim = true
