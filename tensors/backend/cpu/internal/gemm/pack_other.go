//go:build !amd64 || purego

package gemm

// The packing helpers exist in amd64 assembly only; elsewhere packing runs its Go loops.
const (
	haveTranspose8 = false
	haveZip16      = false
	haveCopyRows8  = false
)

func transpose8x8(dst *float32, dstStride int, src *float32, srcStride int, blocks int) {
	panic("gemm: transpose8x8 needs amd64 assembly")
}

func zipRows16(dst *uint32, r0, r1 *uint16, n16 int) {
	panic("gemm: zipRows16 needs amd64 assembly")
}

func copyRows8(dst, src *float32, srcStride, rows, width8 int) {
	panic("gemm: copyRows8 needs amd64 assembly")
}

func transpose4x8(dst *float32, dstStride int, src *float32, srcStride int, blocks int) {
	panic("gemm: transpose4x8 needs amd64 assembly")
}
