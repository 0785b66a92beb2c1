// Command gpubench checks and measures goaccel on a GPU, for tests/gpu/check.sh, which runs
// bench_torch.py beside it on the same GPU: GEMM throughput in float32 (full precision, no TF32)
// and bfloat16 (autocast, float32 accumulation) at 4096³ and 8192³, and the training step of an
// MLP 784-512-512-10 with AdamW at batch 128, each as one line "name value unit"; -mnist trains
// that MLP on MNIST through the Accelerator (float32 and bf16, three epochs each) and fails below
// 97 % test accuracy; -check only runs one kernel.
//
// Files:
//   - main.go: the flags and what each mode prints.
//   - gemm.go: the GEMM throughput (every timed product released at once).
//   - mlp.go: the MLP training step.
//   - mnist.go: MNIST through the Accelerator on cuda:0.
package main
