#!/usr/bin/env bash
# gpt: one training step of nanoGPT's model, written as a user writes it (no Release): forward,
# cross entropy, backward, AdamW with nanoGPT's decay groups, zero grad; at two sizes, the
# character GPT of notebooks/char_gpt.ipynb (4 layers × 4 heads × 128, block 64, batch 16) and
# nanoGPT's shakespeare-char (6 × 6 × 384, block 256, batch 8), each in float32 and under
# bfloat16 autocast. goaccel (nn's BenchmarkGPTTrainStep, GOMAXPROCS 1 and 2) beside PyTorch 2.x
# (bench/gpt_torch.py: nanoGPT's PyTorch 2 model, scaled_dot_product_attention(is_causal=True),
# AdamW(fused=True), 1 and 2 threads; torch.compile as a second column), alternated ROUNDS (2)
# times in one run. Each side's best setting and best round count; the ratio is goaccel /
# PyTorch eager (below 1: goaccel is faster; bound 0.7), in wall time and in process CPU time
# (steadier on a shared machine).
#
#   bash bench/gpt.sh    # ROUNDS=2 SIZES="char shakespeare" COMPILE=1 PYTHON=.venv/hf/bin/python
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/nn.test" ./nn/ || exit 1
sizes=${SIZES:-char shakespeare}
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for round in $(seq "${ROUNDS:-2}"); do
	echo "# round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)"
	if [ "$HAVE_TORCH" = 1 ]; then
		GPT_SIZES="$sizes" GPT_COMPILE="${COMPILE:-1}" "$PY" bench/gpt_torch.py "${SECONDS_EACH:-3}" 1 2 2>/dev/null | tee -a "$tmp/runs"
	fi
	for size in $sizes; do
		steps=20
		[ "$size" = shakespeare ] && steps=3
		for procs in 1 2; do
			GOMAXPROCS=$procs "$tmp/nn.test" -test.run '^$' -test.bench "^BenchmarkGPTTrainStep\$/^${size}_" \
				-test.benchtime ${steps}x | grep '^Benchmark' | sed "s/^\(Benchmark[^ \t]*\)-[0-9]*/\1/; s/^\(Benchmark[^ \t]*\)/\1-procs$procs/" | tee -a "$tmp/runs"
		done
	done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
TORCH_VERSION=$TORCH_VERSION awk '
	function lo(a, k, v) { if (!(k in a) || v < a[k]) { a[k] = v; return 1 } return 0 }
	/^Torch(Compiled)?GPTTrainStep\// {
		split($1, p, "/"); split(p[2], q, "-"); k = q[1]
		if (p[1] == "TorchCompiledGPTTrainStep") { if (lo(cw, k, $2)) cws[k] = q[2]; next }
		if (lo(tw, k, $2)) tws[k] = q[2]
		if (lo(tc, k, $4)) tcs[k] = q[2]
	}
	/^BenchmarkGPTTrainStep\// {
		split($1, p, "/"); split(p[2], q, "-"); k = q[1]
		for (i = 2; i <= NF; i++) { if ($i == "ns/op") w = $(i - 1) / 1e6; if ($i == "cpu-ms/op") c = $(i - 1) }
		if (lo(gw, k, w)) gws[k] = q[2]
		if (lo(gc, k, c)) gcs[k] = q[2]
	}
	END {
		v = ENVIRON["TORCH_VERSION"]
		printf "%-18s %9s %9s %9s %9s %9s %7s %7s %8s\n", "(ms per step)", "goaccel", "", "torch " v, "", "compiled", "ratio", "", "compiled"
		printf "%-18s %9s %9s %9s %9s %9s %7s %7s %8s\n", "", "cpu", "wall", "cpu", "wall", "wall", "cpu", "wall", "wall"
		n = split("char_f32 char_bf16 shakespeare_f32 shakespeare_bf16", ks, " ")
		for (i = 1; i <= n; i++) {
			k = ks[i]
			if (!(k in gw)) continue
			if (!(k in tw)) { printf "%-18s %9.1f %9.1f\n", k, gc[k], gw[k]; continue }
			comp = "-"; compr = "-"
			if (k in cw) { comp = sprintf("%.1f", cw[k]); compr = sprintf("%.2fx", gw[k] / cw[k]) }
			printf "%-18s %9.1f %9.1f %9.1f %9.1f %9s %6.2fx %6.2fx %8s   (goaccel %s/%s, torch %s/%s)\n", k, gc[k], gw[k], tc[k], tw[k], comp, gc[k] / tc[k], gw[k] / tw[k], compr, gcs[k], gws[k], tcs[k], tws[k]
			printf "SUMMARY\tGPT train step %s\t%.1f ms\t%.1f ms\t%.2fx\t%.2fx\t0.70\n", k, gw[k], tw[k], gw[k] / tw[k], gc[k] / tc[k]
		}
		print "settings: goaccel GOMAXPROCS (procs1/procs2); PyTorch threads, eager, AdamW(fused=True), sdpa(is_causal=True); compiled: torch.compile (inductor) of the model, best thread count; ratio goaccel/PyTorch eager, bound 0.70"
	}' "$tmp/runs"
