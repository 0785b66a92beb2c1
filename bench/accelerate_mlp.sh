#!/usr/bin/env bash
# Data-parallel training of an MLP 784-512-512-10 (AdamW, weight decay 0.01,
# global batch 128): goaccel (notebook_launcher.Launch + accelerate) on 1 and 2
# processes beside PyTorch DDP over gloo (bench/accelerate_ddp.py, the
# Accelerate equivalent, on PyTorch 2.x) in its fastest documented setting (AdamW(fused=True),
# gradients set to None) at 1 and at 2 threads per process, alternated ROUNDS
# times in one run; each line reports the best round and the baseline's best
# thread count: milliseconds per training step, and launch-to-first-step with
# 2 workers.
#
#   bench/accelerate_mlp.sh            # ROUNDS=3 STEPS=60 PYTHON=.venv/hf/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
ROUNDS=${ROUNDS:-3}
STEPS=${STEPS:-60}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

go build -o "$out/accelerate_mlp" ./bench/accelerate_mlp
have_torch=$HAVE_TORCH
"$PY" -c 'import torch.distributed' 2>/dev/null || have_torch=0

for round in $(seq "$ROUNDS"); do
	for p in 1 2; do
		"$out/accelerate_mlp" -procs "$p" -steps "$STEPS" >>"$out/runs"
		if [ "$have_torch" = 1 ]; then
			for threads in 1 2; do
				"$PY" bench/accelerate_ddp.py --procs "$p" --threads "$threads" --steps "$STEPS" >>"$out/runs"
			done
		fi
	done
done

# best WHO PROCS FIELD: the smallest value of FIELD over the rounds (and
# thread counts); setting WHO PROCS FIELD: the threads and setting of that run.
best() {
	awk -v who="$1" -v p="procs=$2" -v f="$3" '$1==who && $2==p {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1]==f && (b=="" || kv[2]+0 < b)) b = kv[2]+0 }
	} END { if (b == "") print "n/a"; else printf "%.2f", b }' "$out/runs"
}
setting() {
	awk -v who="$1" -v p="procs=$2" -v f="$3" '$1==who && $2==p {
		v = ""; s = ""
		for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1]==f) v = kv[2]+0; if (kv[1]=="threads" || kv[1]=="setting") s = s " " $i }
		if (v != "" && (b == "" || v < b)) { b = v; best = s }
	} END { print best }' "$out/runs"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a+0 > 0 && b+0 > 0) printf "%.2fx", a / b; else print "n/a" }'; }

printf "%-34s %10s %10s %12s\n" "measure" "goaccel" "torch" "torch/goaccel"
for p in 1 2; do
	g=$(best goaccel "$p" ms_per_step)
	t=$(best torch "$p" ms_per_step)
	printf "%-34s %10s %10s %12s  torch:%s\n" "ms per step, $p process(es)" "$g" "$t" "$(ratio "$t" "$g")" "$(setting torch "$p" ms_per_step)"
done
g=$(best goaccel 2 launch_to_first_step_ms)
t=$(best torch 2 launch_to_first_step_ms)
printf "%-34s %10s %10s %12s\n" "launch to first step ms, 2 procs" "$g" "$t" "$(ratio "$t" "$g")"
g1=$(best goaccel 1 ms_per_step)
g2=$(best goaccel 2 ms_per_step)
echo "goaccel 2 processes vs 1 process (step time ratio 1p/2p): $(ratio "$g1" "$g2")"
c1=$(best goaccel 1 cpu_ms_per_step)
c2=$(best goaccel 2 cpu_ms_per_step)
echo "goaccel CPU ms per step of one process: 1 process $c1, each of 2 processes $c2 (load: $(cut -d' ' -f1-3 /proc/loadavg))"
[ "$have_torch" = 1 ] || echo "(no torch for $PY: run scripts/deps.sh bench to get the DDP baseline)"
