// Command gpubench measures goaccel on a GPU, for tests/gpu/check.sh, which runs bench_torch.py
// beside it on the same GPU: GEMM throughput in float32 (full precision, no TF32) and bfloat16
// (autocast, float32 accumulation) at 4096³ and 8192³, and the training step of an MLP
// 784-512-512-10 with AdamW at batch 128. Each result is one line "name value unit".
//
// Files:
//   - main.go: the GEMM throughput and MLP step measurements on cuda:0, and -check,
//     which only runs one kernel there.
package main
