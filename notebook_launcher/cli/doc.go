// Package cli implements the `goaccel launch`, `goaccel config` and
// `goaccel env` subcommands, the Go forms of `accelerate launch`,
// `accelerate config` and `accelerate env`, and the notebook's
// `%accelerate config` (ConfigMagic); `%accelerate launch` shares the
// launch flags (Flags).
//
// The configuration is a YAML file with the keys of Accelerate's
// default_config.yaml (compute_environment, distributed_type, mixed_precision,
// num_processes, num_machines, machine_rank, main_process_ip,
// main_process_port, gpu_ids, use_cpu, …). It lives where Accelerate keeps
// it, $HF_HOME/accelerate/default_config.yaml (HF_HOME defaults to
// $XDG_CACHE_HOME/huggingface, then ~/.cache/huggingface), or wherever
// --config_file points. Flags given to `goaccel launch` override the file.
//
//	goaccel config default --mixed_precision bf16
//	goaccel launch --num_processes 2 ./cmd/train --epochs 3
//	goaccel launch --num_processes 2 --resume ./cmd/train --epochs 3
//	goaccel env
//
// Besides accelerate launch's flags, --resume continues from the latest
// automatic checkpoint and --stall_threshold sets when a collective some
// ranks have not joined is reported (a minute). The first SIGINT or
// SIGTERM asks the workers to finish their step, save their state and
// leave, and says how to resume; the next stops them at once. Under srun
// with several machines, each node's --machine_rank defaults to
// SLURM_NODEID (scripts/slurm/submit_multinode.sh).
//
// From Go, each subcommand is one call (cmd/goaccel's are these):
//
//	err := cli.LaunchCommand(ctx, os.Args[2:], os.Stdout, os.Stderr)
//
// Files:
//   - config.go: Config (the keys of default_config.yaml), DefaultConfigFile,
//     BasicConfig, Validate, LoadConfig and SaveConfig.
//   - configcmd.go: ConfigCommand, `goaccel config`, with the questions of
//     `accelerate config`.
//   - configset.go: ConfigMagic, `%accelerate config key=value …`, and
//     ConfigKeys.
//   - env.go: EnvCommand, `goaccel env` (versions, OS, CPU, memory, GPUs,
//     the configuration), and FindGPUs.
//   - fsdp.go: FSDPConfig (a config file's fsdp_config) and the --use_fsdp and
//     --fsdp_* flags, merged into the workers' FSDP settings.
//   - launch.go: Flags (Register, Options), the flags of `accelerate launch`
//     and goaccel's own, and LaunchCommand, which builds a package when given
//     one, runs it on this machine's processes (notebook_launcher.Run) and
//     turns interrupts into graceful stops.
//   - limits.go: refusing a launch this machine cannot carry (open files,
//     cores).
//   - limits_unix.go, limits_windows.go: the open-file limit and core count.
package cli
