// Package backendtest is the conformance suite of goaccel's devices, as gonum's blas/testblas is
// of BLAS implementations: one set of checks that every device runs from its own tests, so a new
// device, or a change to one, proves it computes what the others do.
//
//	func TestDeviceConforms(t *testing.T) { backendtest.Run(t, cpu.New()) }
//
// Run completes the device (backend.Complete: its own fused kernels where it has them, the
// composed ones otherwise) and checks every method of backend.Backend against references
// computed here in float64, never against another device: Core's memory, fills, copies
// between every pair of element types, unary ops and their gradients, broadcast binary ops,
// Where, reductions and batched products (float32, float64, and bfloat16 and float16 operands);
// softmax, layer norm, cross entropy, indexing, unfolding, convolution, max and average pooling,
// attention, top-k, multinomial draws, the optimizer updates and gradient checks; fused
// elementwise programs where the device has them; uploads and downloads where its memory is its
// own; empty axes; and bad indices, targets and weights, which must panic with a message naming
// them. Operands are strided and broadcast views at offsets, destinations start as NaN where a
// kernel must write them and keep their values where it must not, and accumulating kernels
// (IndexAdd, Col2im, LayerNormGrad's dw and db) add to existing values. Results match the
// reference exactly where the operation is exact in the element type (moves, conversions,
// comparisons, the four arithmetic ops, extremes), to a stated relative tolerance elsewhere.
//
// The devices that run it: the CPU (tensors/backend/cpu), the strict simulated devices
// (tensors/backend/sim, with only Core and with every fused op), the composed fused ops on host
// memory (tensors/backend) and the CUDA device (cuda/internal/device, on the emulated GPU of
// `make test-cuda-emulated`, and on a real one through package tensors' tests with
// GOACCEL_TEST_DEVICES=cuda). It is plumbing: only tests import it (tests/layout_test.go
// checks).
//
// Files:
//   - attention.go: Attention and AttentionGrad, TopK and Multinomial.
//   - binary.go: Binary, Where and Reduce.
//   - conv.go: Im2col and Col2im, Conv2d and Conv2dGrad, MaxPool2d and AvgPool2d with their
//     gradients.
//   - edges.go: empty axes, and bad inputs (indices, targets, weights, released and host
//     buffers).
//   - gemm.go: Gemm.
//   - index.go: IndexSelect, IndexAdd, Gather and ScatterAdd.
//   - memory.go: Alloc, AllocUninit, Release, Fill and Copy.
//   - nn.go: Softmax, LayerNorm and CrossEntropy with their gradients.
//   - optim.go: the optimizer updates (Adam, SGD, Adadelta, RMSprop, Adagrad), SumSquares and
//     ScaleCheck.
//   - suite.go: Run, Strict, and the harness: device buffers from values and back, the
//     comparison with its tolerance, panics expected at a call or its read back.
//   - transfer.go: fused elementwise programs (ElementwiseOps) and Upload and Download
//     (Transfer).
//   - unary.go: Unary and UnaryGrad.
package backendtest
