//go:build !amd64 || purego

package direct

const available = false

var (
	forwardKernels    [2][maxRows]forwardKernel
	weightGradKernels [2]weightGradKernel
)
