//go:build !amd64 || purego

package gemm

// archKernels has no assembly kernels to offer off amd64 or with -tags purego.
func archKernels() (f32 []kernel, bf16 []kernel) { return nil, nil }

const (
	haveTranspose8 = false
	haveZip16      = false
)

func transpose8x8(dst *float32, dstStride int, src *float32, srcStride int, blocks int) {
	panic("gemm: transpose8x8 needs amd64 assembly")
}

func zipRows16(dst *uint32, r0, r1 *uint16, n16 int) {
	panic("gemm: zipRows16 needs amd64 assembly")
}
