// Command fsdp measures a training step of fully sharded data parallelism beside
// data parallelism on the same model: notebooks/char_gpt.ipynb's character GPT
// (nn.GPT, vocabulary 96, block 64, 4 layers, 4 heads, 128 features, about 0.8 M
// parameters) with AdamW at a global batch of 16 × 64 tokens, on -procs CPU
// processes started by notebook_launcher.Launch (bench/fsdp.sh runs it beside
// PyTorch FSDP2 through Accelerate with gloo, bench/fsdp_torch.py).
//
// It prints one line per setting (ddp, full-shard, shard-grad-op, and the two sharded ones
// with forward prefetch and BACKWARD_PRE: full-shard-prefetch, shard-grad-op-prefetch):
//
//	goaccel procs=2 setting=full-shard ms_per_step=41.2 cpu_ms_per_step=39.9
//
// Files:
//   - main.go: the flags, the launch and each worker's timed training steps.
package main
