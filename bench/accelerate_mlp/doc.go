// Command accelerate_mlp measures goaccel's data-parallel training speed and
// launch latency: an MLP 784-512-512-10 with AdamW at a global batch of 128
// on -procs processes started by notebook_launcher.Launch (bench/accelerate_mlp.sh
// runs it beside the PyTorch DDP baseline).
//
// It prints one line (cpu_ms_per_step: the CPU time of rank 0's process per
// step, which contention from other work inflates less than the wall time):
//
//	goaccel procs=2 ms_per_step=7.9 cpu_ms_per_step=3.6 launch_to_first_step_ms=180
//
// With BENCH_PHASES set each rank also prints, on stderr, its wall and CPU
// time per step split into forward, backward (with the gradient all-reduce)
// and optimizer step, its context switches and minor page faults per step
// (memory the runtime returned to the OS and touched again); BENCH_CPUPROFILE=file
// writes rank 0's CPU profile of the timed steps.
//
// Files:
//   - main.go: the flags, the launch and each worker's timed training steps.
package main
