// Package launch runs one node's share of a distributed job: N worker
// processes with the torchrun environment (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT), Accelerate's
// settings (ACCELERATE_MIXED_PRECISION, ACCELERATE_GRADIENT_ACCUMULATION_STEPS,
// ACCELERATE_USE_CPU, CUDA_VISIBLE_DEVICES), a rendezvous store it hosts
// itself on one node, and restarts of the whole group after a failure.
//
// It is the engine under notebook_launcher.Launch and Run, `goaccel launch`
// and `%accelerate launch`; internal/procgroup underneath starts, relays and
// stops the processes.
//
//	cfg := launch.Config{NumProcesses: 2, MixedPrecision: "bf16"}
//	if err := cfg.Normalize(); err != nil { … }
//	err := launch.Run(ctx, "/path/to/worker", nil, cfg)
package launch
