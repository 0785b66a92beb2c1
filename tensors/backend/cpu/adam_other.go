//go:build !amd64 || purego

package cpu

const useAVX = false

func adamAVX(w, grad, m, v *float32, n int, c *adamConsts) {
	panic("optim: adamAVX called without AVX support")
}

func sgdAVX(w, grad, buf *float32, n int, c *sgdConsts) {
	panic("optim: sgdAVX called without AVX support")
}
