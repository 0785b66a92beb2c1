// Package device is the CUDA backend of package tensors: device memory from a caching
// allocator, every kernel of backend.Backend (CUDA C from package kernels), matrix products
// through cuBLAS, all work queued on one stream per device and synchronised only when values are
// read back (Download). Package cuda registers it; nothing here is loaded until a program asks
// for a GPU.
//
//	backend.Register("cuda", func(i int) (backend.Core, error) { return device.Open(i) }, device.Count)
//
// Files:
//   - attention.go: Attention and AttentionGrad (a warp per query row, an online softmax), TopK
//     and Multinomial.
//   - copy.go: Copy (a memcpy or the strided, converting kernel) and Fill.
//   - device.go: Device: its lock, context and stream, kernel launches (each parameter
//     marshalled as its C type), the caching allocator (Alloc, AllocUninit, Release, and
//     RecordUse, which keeps a block another stream uses from reuse until that work is done;
//     blocks of unreachable buffers come back to it, and the device's Pacer counts what is
//     handed out), Upload, Download and Synchronize, and the accessors collectives use (Stream,
//     Index, Do, Driver, CacheStats, ResetPeakMemory, Pacer).
//   - elementwise.go: Unary, UnaryGrad, Binary, Where, Reduce, Softmax and SoftmaxGrad.
//   - fused.go: LayerNorm, CrossEntropy, the index ops, Im2col, Col2im, Conv2d (im2col and
//     cuBLAS), MaxPool2d, AvgPool2d, the optimizer updates (Adam, SGD, Adadelta, RMSprop,
//     Adagrad), SumSquares and ScaleCheck.
//   - gemm.go: Gemm through cuBLAS (row-major as a transposed column-major product), with
//     packed rounded copies of autocast's 16-bit operands (only the matrices' elements).
//   - state.go: loading the driver and cuBLAS once: Count, Err, Driver, SetTF32 and Open.
package device
