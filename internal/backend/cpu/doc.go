// Package cpu is the host backend of package tensors: pooled buffers and the float32/float64
// kernels (elementwise, reductions, softmax, gemm, indexing, normalisation, losses, convolution,
// fused optimizer updates, gradient checks). It implements every fused op of backend.Backend.
//
// Work above a size threshold is split into chunks that run on one shared pool of worker
// goroutines (internal/parallel): idle workers keep looking for the next op for about 100 µs
// before they park, as OpenMP's threads do, and the calling goroutine takes chunks from the
// same counter, so ops a few microseconds apart start on every core at once and a late worker
// never delays an op. A convolution runs its groups of images on every core, each unfolding
// its images into its own column buffer while they are in its cache; its weight gradient is
// summed in a fixed order, so it does not depend on the number of cores.
package cpu
