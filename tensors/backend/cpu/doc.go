// Package cpu is the host backend of package tensors: pooled buffers and the float32/float64
// kernels (elementwise, reductions, softmax, gemm, indexing, normalisation, losses, convolution,
// pooling, attention, sampling, fused optimizer updates, gradient checks). It implements every
// fused op of backend.Backend, and registers itself as device "cpu" (one device, index 0) when
// imported, as every device does; tensors/backend/defaults links it into every program.
//
//	c := cpu.New()
//	x := c.Alloc(backend.F32, 1<<20)
//	c.Fill(x, 2)
//	c.Unary(backend.Exp, x, x, 0, 0) // in place, on every core: x.F32 is e² throughout
//	c.Release(x)                      // kept in the free list of its size class
//
// A buffer that is never released comes back to the pool too, once the garbage collector finds
// it unreachable; the pool's pacer makes it look when the bytes handed out since the last
// collection, less those released, exceed a budget, and the pool lets go of buffers nobody
// reused through three collections.
//
// Work above a size threshold is split into chunks that run on one shared pool of worker
// goroutines (tensors/backend/cpu/internal/parallel): idle workers keep looking for the next op
// for about 100 µs before they park, as OpenMP's threads do, and the calling goroutine takes
// chunks from the same counter, so ops a few microseconds apart start on every core at once and
// a late worker never delays an op. A convolution runs its groups of images on every core, each
// unfolding its images into its own column buffer while they are in its cache (or, for stride-1
// float32 convolutions on AVX-512, reading them in place with the kernels of
// tensors/backend/cpu/internal/direct); its weight gradient is summed in a fixed order, so it
// does not depend on the number of cores. Matrix products run on
// tensors/backend/cpu/internal/gemm.
//
// Vector kernels are Go assembly for amd64 (AVX2, AVX-512 where noted), chosen at start-up; the
// purego build tag, or another architecture, runs the scalar Go loops, which give the same bits
// wherever the assembly promises it (the optimizer updates).
//
// Files:
//   - adam.go: the per-step scalars of an Adam update and its scalar loop.
//   - adaptive.go: AdadeltaStep, RMSpropStep and AdagradStep, chunked over every core.
//   - adam_amd64.go, adam_other.go: the AVX kernels of the Adam and SGD updates (adam_amd64.s,
//     sgd_amd64.s), or their absence.
//   - attention.go: Attention and AttentionGrad, fused attention in the manner of
//     FlashAttention-2 (blocks of queries and keys, a running softmax).
//   - attnmask.go: the key padding mask as the attention kernels read it (each row's last
//     visible key, the blocks with masked keys before it).
//   - avgpool.go: AvgPool2d and AvgPool2dGrad (fixed and adaptive windows).
//   - binary.go: Binary and Where, broadcast elementwise ops of two operands.
//   - binary_amd64.go, binary_other.go: the AVX2 (and AVX-512) float32 kernels of Binary
//     (binary_amd64.s), with non-temporal stores for large adds.
//   - bf16_amd64.go, bf16_other.go: f32ToBF16, float32 to bfloat16 sixteen lanes at a time
//     (bf16_amd64.s, AVX-512) with the scalar rounding's bits, or the scalar loop.
//   - bufferpool.go: the buffer pool (Alloc, AllocUninit, Release, Pooled, Pacer): free lists by
//     size class, reclaimed buffers, the pacer's budget.
//   - conv.go: Conv2d and Conv2dGrad: image groups unfolded and multiplied on every core, the
//     weight gradient summed in a fixed order.
//   - conv_direct.go: the convolutions that run the direct, planar or Winograd kernels instead.
//   - copy.go: Copy, strided copies with element-type conversion, and fills (fillRow: float32
//     rows with fillF32's vector stores, others by doubling).
//   - cpu.go: CPU, New, Name and Fill.
//   - crossentropy.go: CrossEntropy and CrossEntropyGrad.
//   - elementwise.go: Elementwise and ElementwiseSum, fused chains of float32 elementwise ops a
//     tile at a time (one step's kernels as Unary's and Binary's), summed in Reduce's runs.
//   - exp_amd64.go, exp_other.go: e^(x−shift) with its sum and the maximum of a row, with AVX2
//     (exp_amd64.s) or in Go.
//   - expf.go: expf, a float32 e^x, and the softmax row helpers built on it.
//   - gelu_amd64.go, gelu_other.go: the AVX2 GELU kernels and their gradients (gelu_amd64.s), or
//     their absence.
//   - gemm.go: Gemm, on the gemm engine, with bfloat16 and float16 operands rounded for autocast.
//   - half.go: rounding float32 to the nearest float16.
//   - im2col.go: Im2col and Col2im, unfolding images into columns for convolution (and folding
//     them back), with paths for stride 2 and for rows as wide as the image.
//   - index.go: IndexSelect, IndexAdd, Gather and ScatterAdd.
//   - layernorm.go: LayerNorm and LayerNormGrad.
//   - maxpool.go: MaxPool2d and MaxPool2dGrad.
//   - optim.go: AdamStep, SGDStep, SumSquares and ScaleCheck, chunked over every core.
//   - parallel.go: parallelFor, the chunked loop every kernel splits its work with.
//   - reduce.go: Reduce (sums, extremes, arg-extremes), Softmax and SoftmaxGrad, and the
//     fixed-order float64 sums.
//   - register.go: the registration of device "cpu" (the program's one CPU).
//   - rowvec.go: row helpers of the softmax-shaped kernels.
//   - sampling.go: TopK and Multinomial.
//   - stream.go, stream_amd64.go, stream_other.go: non-temporal stores for kernels that write all
//     of a large cold buffer (streamF32, with copyNTF32 in stream_amd64.s), and fillF32, a
//     float32 fill through the cache.
//   - streamops_amd64.go, streamops_other.go: one-pass non-temporal kernels (streamops_amd64.s)
//     for the commonest streamed ops (add, subtract, multiply, a scalar add or product, a square),
//     which skip streamF32's scratch tile.
//   - sum_amd64.go, sum_other.go: the AVX and AVX-512 float32 sums (sum_amd64.s), or their
//     absence.
//   - unary.go: Unary and UnaryGrad, elementwise functions and their gradients (the scalar add
//     and product and the square through Binary's vector kernels).
package cpu
