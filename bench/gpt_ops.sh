#!/usr/bin/env bash
# gpt_ops: where one training step of nanoGPT's model goes, op by op, in goaccel and in PyTorch 2.x
# on the same model (bench/gpt.sh's step: forward, cross entropy, backward, AdamW, zero grad,
# written without Release), float32 and bfloat16 autocast, on one core. goaccel's side is a CPU
# profile of nn's BenchmarkGPTTrainStep (GOMAXPROCS 1), each backend kernel's cumulative time;
# PyTorch's is torch.profiler's self CPU time of the aten ops (bench/gpt_ops_torch.py, one
# thread). Each side's shares are scaled to its step's process CPU time, so the rows add up to the
# step and the two columns compare (the machine is shared: CPU time is the steadier figure).
# "rest" is what no row holds: autograd, dispatch, views, the allocator and garbage collector.
#
#   bash bench/gpt_ops.sh    # SIZE=char (or shakespeare) STEPS=100 PYTHON=.venv/hf/bin/python
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
size=${SIZE:-char}
steps=${STEPS:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/nn.test" ./nn/ || exit 1
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for dt in f32 bf16; do
	GOMAXPROCS=1 "$tmp/nn.test" -test.run '^$' -test.bench "^BenchmarkGPTTrainStep\$/^${size}_$dt\$" \
		-test.benchtime "${steps}x" -test.cpuprofile "$tmp/$dt.prof" >"$tmp/$dt.bench" || exit 1
	cpu=$(awk '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == "cpu-ms/op") print $(i - 1) }' "$tmp/$dt.bench")
	# Each backend kernel's cumulative seconds; the shares of the profile's total, times the step.
	go tool pprof -top -cum -nodecount=100000 "$tmp/nn.test" "$tmp/$dt.prof" 2>/dev/null | awk -v cpu="$cpu" -v dt="$dt" '
		/Total samples/ { total = $(NF - 1); sub(/s$/, "", total); if (total ~ /m$/) { sub(/m$/, "", total); total /= 1000 } }
		$6 ~ /backend\/cpu\.\(\*CPU\)\.[A-Za-z]+$/ {
			v = $4; sub(/s$/, "", v); if (v ~ /m$/) { sub(/m$/, "", v); v /= 1000 }
			m = $6; sub(/.*\)\./, "", m); t[m] += v
		}
		END {
			split("matmul:Gemm attention_fwd:Attention attention_bwd:AttentionGrad layernorm_fwd:LayerNorm layernorm_bwd:LayerNormGrad gelu_fwd:Unary gelu_bwd:UnaryGrad cross_entropy:CrossEntropy,CrossEntropyGrad adamw:AdamStep elementwise:Binary,Elementwise,ElementwiseSum,Reduce copies:Copy embedding:IndexSelect,IndexAdd,Gather,ScatterAdd zeroing:Fill", g, " ")
			print "goaccel total " cpu
			for (i = 1; i in g; i++) {
				split(g[i], kv, ":"); n = split(kv[2], ms, ","); s = 0
				for (j = 1; j <= n; j++) s += t[ms[j]]
				printf "goaccel %s %.2f\n", kv[1], s / total * cpu
			}
		}' >"$tmp/$dt.go"
	: >"$tmp/$dt.torch"
	[ "$HAVE_TORCH" = 1 ] && "$PY" bench/gpt_ops_torch.py "$size" "$dt" 20 >"$tmp/$dt.torch" 2>/dev/null
	echo
	echo "${size}_$dt, ms of CPU per step on one core (torch $TORCH_VERSION; load average $(cut -d' ' -f1-3 /proc/loadavg))"
	cat "$tmp/$dt.go" "$tmp/$dt.torch" | awk '
		{ v[$1, $2] = $3; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
		END {
			printf "%-16s %9s %9s %7s\n", "op", "goaccel", "PyTorch", "ratio"
			for (i = 1; i <= n; i++) {
				k = order[i]
				if (k == "total") continue
				gs += v["goaccel", k]; ts += v["torch", k]
				row(k, v["goaccel", k], v["torch", k])
			}
			row("rest", v["goaccel", "total"] - gs, v["torch", "total"] - ts)
			row("step", v["goaccel", "total"], v["torch", "total"])
		}
		function row(k, a, b) {
			if (b > 0) printf "%-16s %9.2f %9.2f %6.2fx\n", k, a, b, a / b
			else printf "%-16s %9.2f %9s %7s\n", k, a, "-", "-"
		}'
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
