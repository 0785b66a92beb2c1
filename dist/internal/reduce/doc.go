// Package reduce holds the element-wise reduction kernels the collectives apply
// (sum, max, min) and the byte-level views that let one transport move any
// element type.
//
//	buf := reduce.FromF32(grads)                        // the same memory, as bytes
//	reduce.Bytes(reduce.Float32, reduce.Sum, buf, peer) // buf += peer
//
// Files:
//   - reduce.go: Op, DType, Bytes, BytesTo and BytesToScaled (reduce and
//     copy, with a mean's scaling), Scale, and the views F32, F64, I64 and
//     FromF32, FromF64, FromI64.
//   - gen_neon.go: the generator of sum_arm64.s (build tag ignore; go generate runs it).
//   - sum_amd64.go: the AVX2 float32 sums (sum_amd64.s).
//   - sum_arm64.go: the NEON float32 sums (sum_arm64.s).
//   - sum_other.go: no vector sums off amd64 and arm64 or with purego.
//
//go:generate go run gen_neon.go
package reduce
