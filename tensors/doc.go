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
// ScaledDotProductAttention is one fused op (causal mask, softmax, dropout) whose forward pass
// keeps memory linear in the sequence length (online softmax over tiles of keys);
// MultiHeadAttention reads the heads out of a fused q|k|v projection without copies.
//
// # Memory
//
// Tensors share refcounted storage (views, Detach and gradients share it with their source).
// Release says the caller is done with a tensor: once nothing else holds its storage, the memory
// goes back to the device's pool of size classes and the next tensor of a similar size reuses it,
// without the garbage collector, zeroing or page faults. Ops release their own temporaries, and
// autograd nodes free what their backward pass read once it has run; a tensor that is simply
// dropped is still freed by the garbage collector.
//
// NoGrad and Autocast are process-wide switches (Go has no goroutine-local state).
//
// # Devices
//
// A tensor lives on a Device: the CPU, or a device registered by a backend (CUDA(i) for NVIDIA
// GPUs). Package tensors imports no device: a device package registers its type with
// tensors/backend when it is imported, as a database/sql driver does, so a program that uses
// GPUs imports github.com/goaccel/goaccel/cuda (package accelerate and notebook cells do).
// Ops run on their operands' device and keep results there; mixing devices panics with
// both names. t.To(d) copies (differentiably), t.MoveTo(d) moves a parameter in place,
// Float32s/Item read values back (waiting for the device's queued work), DeviceCount says what
// the machine has. Data32 and Data64 expose CPU storage only: a device's memory never reaches
// the host except through those read-backs. AdamStep, SGDStep, SumSquares, ScaleInPlace and
// ScaleCheckFinite are the fused multi-tensor updates optimizers, gradient clipping and loss
// scaling use, on any device.
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
//   - dtype.go: DType, Device, CPU, CUDA, DeviceCount, the backend of a device, and
//     RoundBFloat16 and RoundFloat16.
//   - elementwise.go: the arithmetic and elementwise functions (Add … Div, the *Scalar forms,
//     Pow, Exp, Log, ReLU, GELU, SiLU, Clamp, …) with their gradients.
//   - host.go: the only reads and writes of host buffers' elements.
//   - index.go: IndexSelect, Gather, Cat and Stack.
//   - layernorm.go: LayerNorm.
//   - linear.go: Linear, MSE, Dropout and Embedding.
//   - loss.go: CrossEntropyOptions, CrossEntropy and CrossEntropyWith (ignored index, label
//     smoothing).
//   - matmul.go: MatMul, batched and broadcast, under autocast in 16 bits.
//   - pool.go: MaxPool2d.
//   - print.go: String, NumPy-style printing.
//   - random.go: Generator (seeded, with its State), ManualSeed, DefaultGenerator, Randn, Rand
//     and RandInt.
//   - reduce.go: Sum, Mean, Max, Min (whole or by dimension), ArgMax, Var, Softmax and
//     LogSoftmax.
//   - sampling.go: TopK, Multinomial, Tril, Triu, Split and Chunk.
//   - shape.go: AsType, Reshape, View, Flatten, Transpose, T, Permute, Squeeze, Unsqueeze and
//     Slice.
//   - storage.go: refcounted storage and Release.
//   - tensor.go: Tensor: Shape, DType, Device, Contiguous, To, MoveTo, the read-backs (Data32,
//     Float32s, Item, …), CopyFrom and Fill.
//   - update.go: the fused multi-tensor updates: AdamStep, SGDStep, SumSquares, ScaleInPlace and
//     ScaleCheckFinite.
//   - where.go: Where, MaskedFill and the comparisons.
package tensors
