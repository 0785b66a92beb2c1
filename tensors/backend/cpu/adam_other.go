//go:build (!amd64 && !arm64) || purego

package cpu

const useVecOptim = false

func adamVec(w, grad, m, v *float32, n int, c *adamConsts) {
	panic("cpu: adamVec called without a vector kernel")
}

func sgdVec(w, grad, buf *float32, n int, c *sgdConsts) {
	panic("cpu: sgdVec called without a vector kernel")
}
