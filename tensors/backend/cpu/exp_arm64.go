//go:build arm64 && !purego

package cpu

//go:noescape
func expShiftSumNEON(dst, src *float32, n int, shift float32) float32

//go:noescape
func maxF32NEON(src *float32, n int) float32

// haveExpVec is true: the NEON kernels run on every arm64 CPU.
const haveExpVec = true

// expShiftSumVec is exp_vector.go's exp kernel: kernels_arm64.s's, n a positive multiple of 8.
func expShiftSumVec(dst, src *float32, n int, shift float32) float32 {
	return expShiftSumNEON(dst, src, n, shift)
}

// maxF32Vec is exp_vector.go's maximum kernel: kernels_arm64.s's, n a positive multiple of 8.
func maxF32Vec(src *float32, n int) float32 { return maxF32NEON(src, n) }
