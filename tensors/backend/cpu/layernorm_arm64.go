//go:build arm64 && !purego

package cpu

// lnRowsVector reports whether the NEON row kernels of kernels_arm64.s take rows of n floats (a
// multiple of 16, as on amd64); the scalar loops of layernorm.go do the others.
func lnRowsVector(n int) bool { return n > 0 && n%16 == 0 }
