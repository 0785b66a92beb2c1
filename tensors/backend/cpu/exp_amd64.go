//go:build amd64 && !purego

package cpu

import "golang.org/x/sys/cpu"

//go:noescape
func expShiftSumAVX2(dst, src *float32, n int, shift float32) float32

//go:noescape
func maxF32AVX2(src *float32, n int) float32

var haveAVX2FMA = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// haveExpVec reports whether exp_amd64.s's kernels run on this CPU (AVX2 and FMA).
var haveExpVec = haveAVX2FMA

// expShiftSumVec is exp_vector.go's exp kernel: exp_amd64.s's, n a positive multiple of 8.
func expShiftSumVec(dst, src *float32, n int, shift float32) float32 {
	return expShiftSumAVX2(dst, src, n, shift)
}

// maxF32Vec is exp_vector.go's maximum kernel: exp_amd64.s's, n a positive multiple of 8.
func maxF32Vec(src *float32, n int) float32 { return maxF32AVX2(src, n) }
