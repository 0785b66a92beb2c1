// Package backend is the driver interface between package tensors and the devices that run its
// kernels. Package tensors owns shapes, broadcasting rules and autograd; a backend only moves and
// computes numbers in buffers it allocated.
//
// The interface is split by level, as gonum's blas is: every device implements Core (memory,
// copies, elementwise ops, reductions, gemm); the fused ops (softmax, layer norm, cross entropy,
// indexing, convolution, pooling, attention, sampling, optimizer updates, gradient checks) are
// optional interfaces a device adds when it has faster kernels. Complete turns a Core into the
// full Backend that tensors calls, taking each fused op from the device when it has one and
// composing it from Core ops otherwise, so a new device starts small. A device whose memory the
// host cannot address also implements Transfer.
//
// Devices are siblings found by name: every device registers itself with Register from init,
// as database/sql drivers do, and package tensors opens them by name and imports none of them.
// The CPU lives in tensors/backend/cpu (it registers "cpu"), the strict simulated devices of
// tests in tensors/backend/sim ("sim", "simfused"), and the CUDA device under cuda/ (package cuda
// registers "cuda"). Package tensors/backend/defaults decides which devices every program links
// in (the CPU); package tensors imports it.
//
//	func init() {
//		backend.Register("cuda", func(i int) (backend.Core, error) { return device.Open(i) }, device.Count)
//	}
//	be, err := backend.Open("cuda", 0) // the completed Backend, cached
//
// Package tensors/backend/backendtest is the conformance suite every device runs from its own
// tests (backendtest.Run(t, dev)): each method of Backend against float64 references, so a new
// device, or a change to one, proves it computes what the others do.
//
// Memory: a device hands its buffers' memory back to its pool when they are released, and
// when a buffer that was never released becomes unreachable (Reclaim); it charges what it hands
// out to its Pacer, which says when a collection is due. A program that pauses (a notebook
// between cells) gives back what it dropped and what the pools keep with CollectDropped and Idle. A buffer reaching a kernel is reachable
// until the kernel returns: package tensors keeps its tensors so.
//
// Conventions: every kernel writes a contiguous destination; "outer, n, inner" describe a
// contiguous tensor viewed as [outer, n, inner] with the operated axis in the middle, which may
// be empty (n = 0: sums are zero, a softmax writes nothing, and no kernel reads a row). A
// destination may be the same buffer as an operand that is read at the same positions (in-place
// elementwise updates); nothing else may overlap.
//
// Files:
//   - attention.go: AttentionParams, AttentionOps and SamplingOps, the counter-based dropout draw
//     (DropoutUniform, DropoutKeep) and the sampling rows every device shares (MultinomialRow,
//     TopKRow).
//   - avgpool.go: AvgPoolParams (its windows: Rows, Cols, Scale) and average pooling composed from
//     two products.
//   - backend.go: DType, Buffer, the op names (UnaryOp, BinaryOp, ReduceOp), Strided, Core and
//     Transfer.
//   - complete.go: Complete, the wrapper that fills in the fused ops a device lacks.
//   - conv.go: ConvParams, ConvDevice, and the convolution composed from unfolding and gemm
//     (Conv2dByColumns, Conv2dGradByColumns).
//   - fallback.go: helpers of the composed fused ops (views, scalars, host copies, index checks).
//   - fallback_attention.go: attention (causal and key padding masks), its gradient, top-k and
//     multinomial composed from Core ops.
//   - fallback_index.go: index select and add, gather, scatter-add, im2col, col2im and max
//     pooling composed from Core ops.
//   - fallback_nn.go: softmax, layer norm and cross entropy (and their gradients) composed from
//     Core ops.
//   - fallback_optim.go: Adam, SGD, Adadelta, RMSprop and Adagrad steps, sums of squares and
//     scale-and-check composed from Core ops.
//   - fused.go: the optional fused-op interfaces (SoftmaxOps, LayerNormOps, CrossEntropyOps,
//     IndexOps, ConvOps, Conv2dOps, PoolOps, AvgPoolOps, OptimizerOps, AdaptiveOptimizerOps,
//     ForeachOps, ElementwiseOps), Elementwise (with ElementwiseStep and ElementwiseInput), Vec,
//     AdamScalars, SGDScalars, AdadeltaScalars, RMSpropScalars, AdagradScalars and Backend.
//   - host.go: NewHost, ContiguousStrides, Coalesce and SizeClass, shared by host devices and
//     pools.
//   - pause.go: what a paused program gives back: CollectDropped (the buffers dropped since the
//     last collection, at the end of a notebook cell), Idle (the pools' free buffers and the
//     heap, to the operating system) and IdleCollections.
//   - reclaim.go: Reclaim and Escape (memory of unreachable buffers back to a device's pool),
//     Pacer (when to collect), CollectIfDue, Collect and Collections.
//   - registry.go: Opener, Register, Count and Open, the device types of this program.
package backend
