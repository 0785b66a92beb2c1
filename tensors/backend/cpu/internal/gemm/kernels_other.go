//go:build (!amd64 && !arm64) || purego

package gemm

// archKernels has no assembly kernels to offer off amd64 and arm64 or with -tags purego.
func archKernels() (f32 []kernel, bf16 []kernel) { return nil, nil }
