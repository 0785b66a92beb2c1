//go:build (amd64 || arm64) && !purego

package cpu

// Adadelta's update kernels: adadelta_amd64.s (AVX, eight lanes a step) and kernels_arm64.s
// (NEON, four), operation for operation as adadeltaScalar's loop (no fused multiply-add, square
// roots and quotients correctly rounded), where useVecOptim says they run.

// adadeltaVecDecay runs adadeltaScalar's arithmetic with weight decay on n elements, n a
// positive multiple of 8.
//
//go:noescape
func adadeltaVecDecay(w, grad, sq, acc *float32, n int, c *adadeltaConsts)

// adadeltaVecPlain is adadeltaVecDecay without weight decay.
//
//go:noescape
func adadeltaVecPlain(w, grad, sq, acc *float32, n int, c *adadeltaConsts)

// adadeltaVec runs adadeltaScalar's arithmetic on the leading multiple of 8 elements with the
// vector kernel and reports how many it did.
func adadeltaVec(w, g, sq, acc []float32, c *adadeltaConsts) int {
	n := len(g) &^ 7
	if !useVecOptim || n == 0 {
		return 0
	}
	_, _, _ = w[n-1], sq[n-1], acc[n-1]
	if c.WeightDecay != 0 {
		adadeltaVecDecay(&w[0], &g[0], &sq[0], &acc[0], n, c)
	} else {
		adadeltaVecPlain(&w[0], &g[0], &sq[0], &acc[0], n, c)
	}
	return n
}
