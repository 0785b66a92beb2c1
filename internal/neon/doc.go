// Package neon encodes the arm64 Advanced SIMD (NEON) instructions that Go's
// arm64 assembler does not know, as WORD directives for the generators of
// goaccel's arm64 kernels (gen_neon.go in tensors/backend/cpu, its gemm
// package and dist/internal/reduce). Go's assembler has VFMLA, VLD1, VST1, VDUP and integer vector
// ops, but no floating-point add, multiply, divide, square root, compare,
// conversion or multiply-by-element, nor the arithmetic shift and bit clear
// (SSHR, BIC) of ReLU's kernels: each function here returns one line of
// Go assembly, the instruction's word followed by its GNU syntax, so the
// generated file reads as the kernel it is.
//
//	p(neon.FMLAElem(neon.V8, neon.V4, neon.V0, 1)) // WORD $0x4fa01088 // fmla v8.4s, v4.4s, v0.s[1]
//
// Programs never link it: only the generators (build tag ignore) import it.
// TestEncodingsMatchGNUAs checks every encoding against GNU as for aarch64
// where it is installed (Debian's binutils-aarch64-linux-gnu).
//
// Files:
//   - neon.go: V, the register type, and the encoders (STNPQ, the non-temporal pair store of
//     the streaming kernels, too).
package neon
