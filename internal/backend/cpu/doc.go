// Package cpu is the host backend of package tensors: pooled buffers and the float32/float64
// kernels (elementwise, reductions, softmax, gemm, indexing, normalisation, losses, convolution
// helpers, fused optimizer updates, gradient checks), parallelised over goroutines only above a
// size threshold. It implements every fused op of backend.Backend.
package cpu
