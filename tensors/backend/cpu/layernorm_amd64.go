//go:build amd64 && !purego

package cpu

// lnRowsVector reports whether the AVX-512 row kernels of layernorm_amd64.s take rows of n floats
// (a multiple of 16); the scalar loops of layernorm.go do the others.
func lnRowsVector(n int) bool { return haveAVX512 && n > 0 && n%16 == 0 }
