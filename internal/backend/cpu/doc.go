// Package cpu is the host backend of package tensors: pooled buffers and the float32/float64
// kernels (elementwise, reductions, softmax, gemm, indexing, normalisation, losses, convolution
// helpers), parallelised over goroutines only above a size threshold.
package cpu
