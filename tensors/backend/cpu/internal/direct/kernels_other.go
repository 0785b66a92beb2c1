//go:build !(amd64 || arm64) || purego

package direct

const available = false

var (
	forwardKernels          [2][maxRows]forwardKernel
	weightGradKernels       [2]weightGradKernel
	planarForwardKernels    [maxPlanarFilters]planarForwardKernel
	planarWeightGradKernels [maxPlanarGradFilters]planarWeightGradKernel
)

// The Winograd transforms exist in assembly only; callers check Available first.

func winoInput(dst *float32, planeStride int, src *float32, rowStride int) { noKernels() }

func winoOutput(y *float32, yRow, yCol int, m *float32, mPlane, mTile, tiles int, bias *float32) {
	noKernels()
}

func winoGrad(dst *float32, dPlane, dTile int, gy *float32, gRow, gCol, tiles int) { noKernels() }

func noKernels() { panic("direct: no kernels on this CPU (check Available)") }
