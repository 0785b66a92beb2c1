// Package launchcli implements the `goaccel launch`, `goaccel config` and
// `goaccel env` subcommands, the Go forms of `accelerate launch`,
// `accelerate config` and `accelerate env`.
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
//	goaccel env
package launchcli
