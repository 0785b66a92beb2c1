//go:build arm64 && !purego

package cpu

// haveReLUVec is true: the NEON kernels run on every arm64 CPU.
const haveReLUVec = true
