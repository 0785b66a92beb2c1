#!/usr/bin/env bash
# gpt_ops: where one training step of nanoGPT's model goes, op by op, in goaccel and in PyTorch 2.x
# on the same model (bench/gpt.sh's step: forward, cross entropy, backward, AdamW, zero grad,
# written without Release), float32 and bfloat16 autocast, on one core. goaccel's side is a CPU
# profile of nn's BenchmarkGPTTrainStep (GOMAXPROCS 1; STEPS steps less STEPS/4, so the steady
# steps only), each backend kernel's cumulative time (bench/ops_profile.sh); PyTorch's is
# torch.profiler's self CPU time of the aten ops (bench/gpt_ops_torch.py, one thread). Each side's
# shares are scaled to its step's process CPU time, so the rows add up to the step and the two
# columns compare (the machine is shared: CPU time is the steadier figure).
# "rest" is what no row holds: autograd, dispatch, views, the allocator and garbage collector.
#
#   bash bench/gpt_ops.sh    # SIZE=char (or shakespeare) STEPS=100 PYTHON=.venv/hf/bin/python
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
. bench/ops_profile.sh
# row:the backend kernels (or packaged functions) it holds; the same groups as gpt_ops_torch.py's
groups="matmul:Gemm attention_fwd:Attention attention_bwd:AttentionGrad layernorm_fwd:LayerNorm layernorm_bwd:LayerNormGrad gelu_fwd:Unary gelu_bwd:UnaryGrad cross_entropy:CrossEntropy,CrossEntropyGrad adamw:AdamStep elementwise:Binary,Elementwise,ElementwiseSum,Reduce copies:Copy embedding:IndexSelect,IndexAdd,Gather,ScatterAdd zeroing:Fill"
size=${SIZE:-char}
steps=${STEPS:-100}
short=$((steps / 4))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/nn.test" ./nn/ || exit 1
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for dt in f32 bf16; do
	for n in "$short" "$steps"; do
		GOMAXPROCS=1 "$tmp/nn.test" -test.run '^$' -test.bench "^BenchmarkGPTTrainStep\$/^${size}_$dt\$" \
			-test.benchtime "${n}x" -test.cpuprofile "$tmp/$dt.$n.prof" >"$tmp/$dt.bench" || exit 1
	done
	cpu=$(awk '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == "cpu-ms/op") print $(i - 1) }' "$tmp/$dt.bench")
	go_ops "$tmp/nn.test" "$tmp/$dt.$short.prof" "$tmp/$dt.$steps.prof" $((steps - short)) "$cpu" "$groups" >"$tmp/$dt.go"
	: >"$tmp/$dt.torch"
	[ "$HAVE_TORCH" = 1 ] && "$PY" bench/gpt_ops_torch.py "$size" "$dt" 20 >"$tmp/$dt.torch" 2>/dev/null
	echo
	echo "${size}_$dt, ms of CPU per step on one core (torch $TORCH_VERSION; load average $(cut -d' ' -f1-3 /proc/loadavg))"
	cat "$tmp/$dt.go" "$tmp/$dt.torch" | ops_table
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
