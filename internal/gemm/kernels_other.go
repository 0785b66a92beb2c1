//go:build !amd64 || purego

package gemm

// archKernels has no assembly kernels to offer off amd64 or with -tags purego.
func archKernels() (f32 []kernel, bf16 []kernel) { return nil, nil }

const haveTranspose8 = false

func transpose8x8(dst *float32, dstStride int, src *float32, srcStride int, blocks int) {
	panic("gemm: transpose8x8 needs amd64 assembly")
}
