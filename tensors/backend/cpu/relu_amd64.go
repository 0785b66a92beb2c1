//go:build amd64 && !purego

package cpu

// haveReLUVec reports whether relu_amd64.s's kernels run on this CPU (AVX2).
var haveReLUVec = haveAVX2FMA
