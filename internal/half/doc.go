// Package half converts between float32 and the two 16-bit float formats
// goaccel stores: bfloat16 and IEEE half precision (float16). Conversions to
// 16 bits round to nearest, ties to even, as PyTorch's casts do; widening is
// exact. The tensor engine, the gemm kernels and the safetensors codec all use
// these, so every path rounds the same way.
//
//	bits := half.F32ToBF16(1.01171875) // 0x3f82
//	f := half.BF16ToF32(bits)
//
// Files:
//   - half.go: F32ToBF16, BF16ToF32, F32ToF16 and F16ToF32.
package half
