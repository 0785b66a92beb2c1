#!/usr/bin/env bash
# llama: decoding with a small random Llama (19.4 M parameters: 4 layers of 512 features, 8 query
# heads over 2 key/value heads, vocabulary 8192): one decoding step over a KV cache of 128 tokens
# (batch 1 and 8), and greedy generation of 64 tokens after a 32-token prompt with and without the
# cache; goaccel (transformers/llama's BenchmarkLlamaDecodeStep and BenchmarkLlamaGenerate,
# GOMAXPROCS 1 and 2) beside transformers 5 on torch 2.x (bench/llama_torch.py, 1 and 2
# threads), alternated ROUNDS (2) times in one run. Each side's best setting and best round; the
# ratio is goaccel / transformers (below 1: goaccel is faster), in process CPU time (steadier on a
# shared machine) and in wall time.
#
# Needs a Python with torch and transformers: GOACCEL_TRANSFORMERS_PYTHON (default python3).
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
py=${GOACCEL_TRANSFORMERS_PYTHON:-python3}
export HF_HUB_OFFLINE=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/llama.test" ./transformers/llama/ || exit 1
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for round in $(seq "${ROUNDS:-2}"); do
	echo "# round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	"$py" bench/llama_torch.py "${SECONDS_EACH:-5}" 1 2 2>/dev/null | tee -a "$tmp/runs" ||
		echo "transformers baseline unavailable (set GOACCEL_TRANSFORMERS_PYTHON to a Python with torch and transformers)"
	for procs in 1 2; do
		GOMAXPROCS=$procs "$tmp/llama.test" -test.run '^$' -test.bench '^BenchmarkLlama' -test.benchtime 10x |
			grep '^Benchmark' | sed -E "s/^(Benchmark[^ \t]*)-$procs([ \t])/\1\2/; s/^(Benchmark[^ \t]*)/\1-procs$procs/" | tee -a "$tmp/runs"
	done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
	function lo(a, k, v) { if (!(k in a) || v < a[k]) { a[k] = v; return 1 } return 0 }
	/^TorchLlama/ {
		n = split($1, p, "-"); k = substr(p[1], 6)
		if (lo(tw, k, $2)) tws[k] = p[n]
		if (lo(tc, k, $4)) tcs[k] = p[n]
	}
	/^BenchmarkLlama/ {
		n = split($1, p, "-"); k = substr(p[1], 10)
		for (i = 2; i <= NF; i++) { if ($i == "ns/op") w = $(i - 1) / 1e6; if ($i == "cpu-ms/op") c = $(i - 1) }
		if (lo(gw, k, w)) gws[k] = p[n]
		if (lo(gc, k, c)) gcs[k] = p[n]
	}
	END {
		printf "%-30s %9s %9s %9s %9s %7s %7s\n", "(ms per op)", "goaccel", "", "transf.", "", "ratio", ""
		printf "%-30s %9s %9s %9s %9s %7s %7s\n", "", "cpu", "wall", "cpu", "wall", "cpu", "wall"
		m = split("LlamaDecodeStep/batch=1 LlamaDecodeStep/batch=8 LlamaGenerate/cache=true LlamaGenerate/cache=false", ks, " ")
		for (i = 1; i <= m; i++) {
			k = ks[i]
			if (!(k in gw)) continue
			if (k in tw)
				printf "%-30s %9.1f %9.1f %9.1f %9.1f %6.2fx %6.2fx   (goaccel %s/%s, torch %s/%s)\n", k, gc[k], gw[k], tc[k], tw[k], gc[k] / tc[k], gw[k] / tw[k], gcs[k], gws[k], tcs[k], tws[k]
			else
				printf "%-30s %9.1f %9.1f\n", k, gc[k], gw[k]
		}
	}' "$tmp/runs"
