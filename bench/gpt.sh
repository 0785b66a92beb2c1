#!/usr/bin/env bash
# gpt: one training step of notebooks/char_gpt.ipynb's character GPT (0.8 M parameters, batch
# 16 × 64 tokens: forward, cross entropy, backward, AdamW with nanoGPT's decay groups, zero grad)
# in goaccel (nn's BenchmarkGPTTrainStep, GOMAXPROCS 1 and 2) and in PyTorch 1.13
# (bench/gpt_torch.py: AdamW foreach=True, 1 and 2 threads), alternated ROUNDS (3) times in one
# run. Each side's best setting and best round counts; the ratio is goaccel / PyTorch (below 1:
# goaccel is faster), in process CPU time (steadier on a shared machine) and in wall time.
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/nn.test" ./nn/ || exit 1
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for round in $(seq "${ROUNDS:-3}"); do
	echo "# round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	/usr/bin/python3 bench/gpt_torch.py 3 | tee -a "$tmp/runs" || echo "PyTorch baseline unavailable (install python3-torch)"
	for procs in 1 2; do
		GOMAXPROCS=$procs "$tmp/nn.test" -test.run '^$' -test.bench '^BenchmarkGPTTrainStep$' \
			-test.benchtime 20x -test.count 3 | grep '^Benchmark' | tee -a "$tmp/runs"
	done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
	function lo(a, k, v) { if (!(k in a) || v < a[k]) { a[k] = v; return 1 } return 0 }
	/^TorchGPTTrainStep/ { if (lo(tw, "t", $2)) tws = $1; if (lo(tc, "t", $4)) tcs = $1 }
	/^BenchmarkGPTTrainStep/ {
		for (i = 2; i <= NF; i++) { if ($i == "ns/op") w = $(i - 1) / 1e6; if ($i == "cpu-ms/op") c = $(i - 1); if ($i == "B/op") b = $(i - 1) }
		if (lo(gw, "g", w)) gws = $1
		if (lo(gc, "g", c)) gcs = $1
		bytes = b
	}
	END {
		if (!("g" in gw)) { print "no goaccel result"; exit 1 }
		printf "%-28s %12s %12s\n", "GPT train step (ms)", "cpu", "wall"
		printf "%-28s %12.2f %12.2f   (%s / %s)\n", "goaccel", gc["g"], gw["g"], gcs, gws
		if ("t" in tw) {
			printf "%-28s %12.2f %12.2f   (%s / %s)\n", "PyTorch 1.13 foreach AdamW", tc["t"], tw["t"], tcs, tws
			printf "%-28s %11.2fx %11.2fx\n", "ratio goaccel/PyTorch", gc["g"] / tc["t"], gw["g"] / tw["t"]
		}
		printf "goaccel allocates %.0f bytes per step\n", bytes
	}' "$tmp/runs"
