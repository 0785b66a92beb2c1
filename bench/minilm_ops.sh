#!/usr/bin/env bash
# minilm_ops: where one training step of the BERT-style encoder goes, op by op, in goaccel and in
# transformers on PyTorch 2.x: bench/minilm.sh's step (MiniLM as a 3-label classifier, batch 16 ×
# 128 tokens with padding, training mode with dropout: forward with the loss, backward, AdamW,
# zero grad), float32 and bfloat16 autocast, on one core. The method is bench/gpt_ops.sh's
# (bench/ops_profile.sh): goaccel's side is a CPU profile of transformers/bert's
# BenchmarkMiniLMTrainStep (GOMAXPROCS 1; STEPS steps less STEPS/3, so the steady steps only),
# PyTorch's is torch.profiler's self CPU time of the aten
# ops (bench/minilm_ops_torch.py, one thread), each scaled to its step's process CPU time. The
# attention rows hold its dropout on both sides (goaccel's is fused into the attention kernels;
# PyTorch's sdpa takes its math path with dropout); "dropout" is the hidden states' dropout
# forward (the mask and its product); "rest" is what no row holds.
#
#   bash bench/minilm_ops.sh    # STEPS=9 PYTHON=.venv/hf/bin/python GOACCEL_MINILM_DIR=...
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
. bench/ops_profile.sh
. bench/minilm_dir.sh
# row:the backend kernels (or packaged functions) it holds; the same groups as minilm_ops_torch.py's
groups="matmul:Gemm attention_fwd:Attention attention_bwd:AttentionGrad layernorm_fwd:LayerNorm layernorm_bwd:LayerNormGrad gelu_fwd:Unary gelu_bwd:UnaryGrad cross_entropy:CrossEntropy,CrossEntropyGrad adamw:AdamStep dropout:tensors.Dropout elementwise:Binary,Elementwise,ElementwiseSum,Reduce copies:Copy embedding:IndexSelect,IndexAdd,Gather,ScatterAdd zeroing:Fill"
steps=${STEPS:-9}
short=$((steps / 3))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bert.test" ./transformers/bert/ || exit 1
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for dt in f32 bf16; do
	bench=BenchmarkMiniLMTrainStep
	[ "$dt" = bf16 ] && bench=BenchmarkMiniLMTrainStepBF16
	for n in "$short" "$steps"; do
		GOMAXPROCS=1 "$tmp/bert.test" -test.run '^$' -test.bench "^$bench\$" \
			-test.benchtime "${n}x" -test.cpuprofile "$tmp/$dt.$n.prof" >"$tmp/$dt.bench" || exit 1
	done
	cpu=$(awk '/^Benchmark/ { for (i = 2; i <= NF; i++) if ($i == "cpu-ms/op") print $(i - 1) }' "$tmp/$dt.bench")
	go_ops "$tmp/bert.test" "$tmp/$dt.$short.prof" "$tmp/$dt.$steps.prof" $((steps - short)) "$cpu" "$groups" >"$tmp/$dt.go"
	: >"$tmp/$dt.torch"
	[ "$HAVE_TORCH" = 1 ] && "$PY" bench/minilm_ops_torch.py "$GOACCEL_MINILM_DIR" "$dt" "$steps" >"$tmp/$dt.torch" 2>/dev/null
	echo
	echo "minilm_$dt train step, ms of CPU per step on one core (torch $TORCH_VERSION; load average $(cut -d' ' -f1-3 /proc/loadavg))"
	cat "$tmp/$dt.go" "$tmp/$dt.torch" | ops_table
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
