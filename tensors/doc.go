// Package tensors is goaccel's tensor engine: n-dimensional arrays (float32 by default;
// float64, bfloat16, float16 and int64 too) with NumPy broadcasting, a define-by-run autograd
// tape, and CPU kernels behind a device backend so that a GPU backend slots in without API
// changes.
//
// The shortest real use:
//
//	w := tensors.Randn(3, 2).SetRequiresGrad(true)
//	x := tensors.New([]float32{1, 2, 3, 4}, 2, 2)
//	loss := tensors.Linear(x, w, nil).Pow(2).Mean()
//	loss.Backward()
//	fmt.Println(w.Grad()) // d loss / d w, shape [3 2]
//
// Ops panic (as PyTorch raises) with a message naming the op and the shapes involved, e.g.
// "tensors: Add: shapes [2 3] and [4] are not broadcastable". Gradients accumulate into Grad
// until ZeroGrad; NoGrad disables recording; OnGradReady hooks fire as soon as a parameter's
// gradient is final during Backward (the distributed layer starts all-reduces from them).
// Autocast runs matmul, Linear and Conv2d in bfloat16 or float16 with float32 accumulation.
//
// ScaledDotProductAttention is one fused op (causal mask, key padding mask, softmax, dropout)
// whose forward pass keeps memory linear in the sequence length (online softmax over tiles of
// keys);
// MultiHeadAttention reads the heads out of a fused q|k|v projection without copies.
//
// # Memory
//
// Code written as in PyTorch, with no Release, keeps its host and device memory bounded and runs
// close to the speed of code that releases. The lifetime rule of temporaries is goaccel's own:
// Go has no reference counting, and its collector sees neither device memory nor the host memory
// a pool keeps reusing. A buffer comes back to its device in one of two ways:
//
//   - Release says the caller is done with a tensor: once nothing else holds its storage (views,
//     Detach and gradients share it; autograd nodes hold what their backward pass reads and let
//     go once it has run), the buffer goes back to the device's pool at once, and the next
//     tensor of a similar size reuses it while it is still in the cache. Ops release their own
//     temporaries this way. This is the fast explicit path.
//   - A tensor that is simply dropped is reclaimed once the garbage collector finds its buffer
//     unreachable (backend.Reclaim: a cleanup hands the memory, never the buffer, back to the
//     pool), at the collection after it became garbage. Each device has a pacer (backend.Pacer)
//     that counts the bytes it hands out, less those released, and runs a collection when they
//     exceed a budget, as Java runs one when direct buffers exceed theirs: 64 to 256 MiB on the
//     host, 256 MiB to a quarter of a GPU's memory (at most 4 GiB), growing while collections
//     take more than 5% of the time between them; and after 16,384 buffers whatever their
//     bytes, so that small temporaries come back while they are still in the cache.
//
// Why this rule rather than a scope (TensorFlow.js's tidy) or finalizers alone (gotch): a scope
// asks every loop to be written for it and cannot free what escapes it; finalizers run only when
// Go's collector runs, which it paces by its own heap (a pool that reuses memory never grows it,
// and device memory is not in it at all), so without a pacer the buffers would come back too late
// or never. The pacer makes plain code safe, and Release keeps code that knows better fast.
//
// Nothing reachable is ever reused: a view, a tensor in a slice or a map, a graph awaiting its
// backward pass, each keeps its buffer. Every op keeps the tensors it hands to a kernel
// reachable until the kernel returns (a CUDA kernel is queued before a block can be reused, and
// later work on the same stream runs after it), which the tests check on the simulated device
// with a collection inside every kernel (sim.CollectEachKernel). Memory reached through Data32
// or Data64 is never reclaimed (the slice may outlive its tensor); the garbage collector frees it
// once nothing references it.
//
// What a user should know: dropped temporaries cost a collection every budget's worth of them (a
// fraction of a millisecond for a compiled program on an idle machine, more when other work keeps
// the other cores busy: a collection waits for every core); a loop that makes 4 MB temporaries
// stays within a few hundred MB. A reclaimed buffer has usually left the cache, which a
// released one has not: kernels that write all of a large cold buffer store around the cache,
// yet memory-bound loops over large tensors still run faster with Release.
//
// Deferred results. On the CPU, a large float32 elementwise op (65,536 elements or more) of
// contiguous tensors that need no gradient returns at once, its elements computed on their first
// read: any op that reads them, Float32s, At, Data32. A chain of such ops is computed in one pass
// with its intermediates in the cache, and a Sum or Mean of one computes it without writing it:
// x.Add(y).MulScalar(0.5) writes one result instead of two, x.Sub(y).Pow(2).Mean() none, and a
// temporary nobody reads is never made. Every element has the bits of the ops run one at a time.
// An operand is read when the result is computed, so any op that takes an operand's buffer (an
// in-place update, CopyFrom, Fill, Data32, Release) first computes the results still reading it;
// ops on tensors exposed by Data32 (which the package cannot see being written) run at once.
//
// NoGrad and Autocast are process-wide switches (Go has no goroutine-local state).
//
// # Devices
//
// A tensor lives on a Device: the CPU, or a device registered by a backend (CUDA(i) for NVIDIA
// GPUs). Package tensors imports no device: every device package, the CPU's included, registers
// its type with tensors/backend when it is imported, as a database/sql driver does, and tensors
// opens devices by name. Which devices every program has is decided in one place,
// tensors/backend/defaults (the CPU), which package tensors imports; a program that uses GPUs
// imports github.com/goaccel/goaccel/cuda (package accelerate and notebook cells do).
// Ops run on their operands' device and keep results there; mixing devices panics with
// both names. t.To(d) copies (differentiably), t.MoveTo(d) moves a parameter in place,
// Float32s/Item read values back (waiting for the device's queued work), DeviceCount says what
// the machine has. Data32 and Data64 expose CPU storage only: a device's memory never reaches
// the host except through those read-backs. AdamStep, SGDStep, SumSquares, ScaleInPlace and
// ScaleCheckFinite are the fused multi-tensor updates optimizers, gradient clipping and loss
// scaling use, on any device (AdadeltaStep, RMSpropStep and AdagradStep too).
//
// Files:
//   - attention.go: AttentionOptions, ScaledDotProductAttention and MultiHeadAttention.
//   - autocast.go: Autocast, matmul, Linear and Conv2d in bfloat16 or float16.
//   - autograd.go: the tape's switches and a tensor's gradient state: NoGrad, IsGradEnabled,
//     RequiresGrad, Grad, ZeroGrad, Detach, Clone, OnGradReady and HookHandle.
//   - backward.go: Backward and BackwardWith, the reverse pass over the tape.
//   - broadcast.go: NumPy broadcasting, its adjoint (summing a gradient back to a shape), dtype
//     promotion and the same-device check.
//   - conv.go: Conv2d.
//   - create.go: New, NewFloat64, FromInt64, Scalar, Zeros, Ones, Full, Arange and the *Like
//     forms.
//   - deferred.go: deferred elementwise results: their recipes, the lists of results that read a
//     storage, and computing them (in one fused pass, or as a sum).
//   - device.go: Device, CPU, CUDA, DeviceCount, the backend of a device (opened by name
//     from the registry of tensors/backend), and ErrOutOfMemory.
//   - dtype.go: DType, RoundBFloat16 and RoundFloat16.
//   - elementwise.go: the arithmetic and elementwise functions (Add … Div, the *Scalar forms,
//     Pow, Exp, Log, ReLU, GELU, SiLU, Clamp, …) with their gradients.
//   - host.go: the only reads and writes of host buffers' elements.
//   - index.go: IndexSelect, Gather, Cat and Stack.
//   - layernorm.go: LayerNorm.
//   - linear.go: Linear, MSE, Dropout and Embedding.
//   - loss.go: CrossEntropyOptions, CrossEntropy and CrossEntropyWith (ignored index, label
//     smoothing).
//   - matmul.go: MatMul, batched and broadcast, under autocast in 16 bits.
//   - norm.go: BatchNorm (training and evaluation, running statistics), SyncBatchNorm (statistics
//     summed across processes), GroupNorm and RMSNorm.
//   - pooling.go: MaxPool2d, AvgPool2d (AvgPool2dOptions) and AdaptiveAvgPool2d.
//   - print.go: String, NumPy-style printing.
//   - profile.go: the ops' events in a profile (accelerate.Profile, package internal/profiling):
//     one atomic load per op while none runs.
//   - random.go: Generator (seeded, with its State), ManualSeed, DefaultGenerator, Randn, Rand
//     and RandInt.
//   - reduce.go: Sum, Mean, Max, Min (whole or by dimension), ArgMax, Var, Softmax and
//     LogSoftmax.
//   - sampling.go: TopK, Multinomial, Tril, Triu, Split and Chunk.
//   - shape.go: AsType, Reshape, View, Flatten, Transpose, T, Permute, Squeeze, Unsqueeze and
//     Slice.
//   - storage.go: refcounted storage, Release, and the lifetime rule of dropped tensors.
//   - tensor.go: Tensor: Shape, DType, Device, Contiguous, To, MoveTo, the read-backs (Data32,
//     Float32s, Item, At, …), CopyFrom and Fill.
//   - update.go: the fused multi-tensor updates: AdamStep, SGDStep, SumSquares, ScaleInPlace and
//     ScaleCheckFinite.
//   - update_adaptive.go: AdadeltaStep, RMSpropStep and AdagradStep.
//   - where.go: Where, MaskedFill and the comparisons.
package tensors
