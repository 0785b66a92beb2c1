#!/usr/bin/env bash
# fsdp: a training step of the character GPT (0.8 M parameters, AdamW, global batch 16 × 64
# tokens) on 2 CPU processes: goaccel's DDP, FULL_SHARD and SHARD_GRAD_OP, the two sharded ones
# also with forward prefetch and BACKWARD_PRE (bench/fsdp), beside
# PyTorch's DDP and FSDP2 through Accelerate over gloo (bench/fsdp_torch.py), alternated ROUNDS
# (3) times in one run. Each line: the best round's milliseconds per step (wall, and rank 0's
# CPU time, steadier on a shared machine) and the ratio torch / goaccel (above 1: goaccel is
# faster).
#
#   bench/fsdp.sh            # ROUNDS=3 STEPS=20 PYTHON=.venv/hf/bin/python (bench/python.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/python.sh # PY: PyTorch 2.x and Accelerate 1.x (.venv/hf)
ROUNDS=${ROUNDS:-3}
STEPS=${STEPS:-20}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/fsdp" ./bench/fsdp
have_torch=$HAVE_TORCH
"$PY" -c 'import accelerate, torch.distributed.fsdp' 2>/dev/null || { have_torch=0; echo "# no torch 2 with accelerate at $PY (scripts/deps.sh bench): goaccel only"; }
for round in $(seq "$ROUNDS"); do
	"$out/fsdp" -procs 2 -steps "$STEPS" | tee -a "$out/runs"
	if [ "$have_torch" = 1 ]; then
		"$PY" bench/fsdp_torch.py --procs 2 --steps "$STEPS" 2>/dev/null | tee -a "$out/runs"
	fi
done
awk '
	{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	  k = $1 " " v["setting"]
	  if (!(k in wall) || v["ms_per_step"] + 0 < wall[k]) wall[k] = v["ms_per_step"] + 0
	  if (!(k in cpu) || v["cpu_ms_per_step"] + 0 < cpu[k]) cpu[k] = v["cpu_ms_per_step"] + 0 }
	END {
		printf "%-22s %22s %22s %16s\n", "setting", "goaccel ms (cpu ms)", "torch ms (cpu ms)", "torch/goaccel"
		n = split("ddp full-shard shard-grad-op", s, " ")
		for (i = 1; i <= n; i++) {
			g = "goaccel " s[i]; t = "torch " s[i]
			printf "%-22s %12.1f (%6.1f) %12.1f (%6.1f) %7.2f (%4.2f)\n", s[i], wall[g], cpu[g], wall[t], cpu[t], wall[t] / wall[g], cpu[t] / cpu[g]
		}
		n = split("full-shard-prefetch shard-grad-op-prefetch", s, " ")
		for (i = 1; i <= n; i++) {
			g = "goaccel " s[i]
			if (g in wall) printf "%-22s %12.1f (%6.1f)\n", s[i], wall[g], cpu[g]
		}
		printf "%-22s %12.2f (%4.2f)\n", "full-shard/ddp", wall["goaccel full-shard"] / wall["goaccel ddp"], cpu["goaccel full-shard"] / cpu["goaccel ddp"]
	}' "$out/runs"
