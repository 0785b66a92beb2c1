#!/usr/bin/env bash
# %accelerate launch from notebook cells, side by side in one run:
#  - launch to first training step with 2 workers from a cell: interpreted,
#    --compile with a warm build cache (and the cold build, stated), against
#    Accelerate 0.21's notebook_launcher on PyTorch (bench/launch_accelerate.py;
#    set ACCELERATE_SRC to a checkout of huggingface/accelerate at v0.21.0);
#  - step time of the MLP 784-512-512-10, global batch 128, AdamW, on 2 workers
#    launched from a cell (interpreted and compiled) against the same loop in a
#    compiled program (bench/accelerate_mlp).
# Each line reports the best of ROUNDS runs.
#
#   ACCELERATE_SRC=/path/to/accelerate bench/launch_cell.sh   # ROUNDS=3 STEPS=60 PYTHON=/usr/bin/python3
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
ROUNDS=${ROUNDS:-3}
STEPS=${STEPS:-60}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

go build -o "$out/goaccel" ./cmd/goaccel
go build -o "$out/accelerate_mlp" ./bench/accelerate_mlp
JUPYTER_DATA_DIR="$out/jupyter" "$out/goaccel" install >/dev/null
export JUPYTER_DATA_DIR="$out/jupyter" HF_HOME="$out/hf" GOACCEL_CACHE="$out/cache" ROUNDS STEPS

# Rounds alternate the cells, the compiled program and Accelerate.
BASELINES="$out/accelerate_mlp -procs 2 -steps $STEPS
$PY bench/launch_accelerate.py --steps $STEPS" "$PY" bench/launch_cell.py >>"$out/runs"
grep -q "ACCELERATE_SRC is not set" "$out/runs" && anchor=0 || anchor=1

# best WHO FIELD: the smallest value of FIELD over the rounds.
best() {
	awk -v who="$1" -v f="$2" '$1==who {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1]==f && (b=="" || kv[2]+0 < b)) b = kv[2]+0 }
	} END { if (b == "") print "n/a"; else printf "%.2f", b }' "$out/runs"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a+0 > 0 && b+0 > 0) printf "%.2fx", a / b; else print "n/a" }'; }

echo "launch to first training step, 2 workers, from a cell (ms):"
a=$(best accelerate launch_to_first_step_ms)
for who in cell-interpreted cell-compiled; do
	g=$(best "$who" launch_to_first_step_ms)
	printf "  %-34s %9s   Accelerate 0.21 notebook_launcher %9s   (%s faster)\n" "$who" "$g" "$a" "$(ratio "$a" "$g")"
done
printf "  %-34s %9s   (go build of the worker program, once per code change)\n" "cell-compiled, cold build cache" "$(best cell-compiled-cold launch_to_first_step_ms)"
echo "ms per step, MLP 784-512-512-10, global batch 128, AdamW, 2 workers:"
p=$(best goaccel ms_per_step)
for who in cell-interpreted cell-compiled; do
	g=$(best "$who" ms_per_step)
	printf "  %-34s %9s   compiled program (bench/accelerate_mlp) %9s   (cell/program %s)\n" "$who" "$g" "$p" "$(ratio "$g" "$p")"
done
printf "  %-34s %9s\n" "Accelerate 0.21 (torch 1.13, gloo)" "$(best accelerate ms_per_step)"
echo "CPU ms per step of rank 0 (less sensitive to other load than wall time):"
p=$(best goaccel cpu_ms_per_step)
for who in cell-interpreted cell-compiled; do
	g=$(best "$who" cpu_ms_per_step)
	printf "  %-34s %9s   compiled program (bench/accelerate_mlp) %9s   (cell/program %s)\n" "$who" "$g" "$p" "$(ratio "$g" "$p")"
done
echo "(load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores)"
[ "$anchor" = 1 ] || echo "(ACCELERATE_SRC not set: no Accelerate anchor; see bench/launch_accelerate.py)"
