#!/usr/bin/env bash
# GPU check of goaccel, for a machine with an NVIDIA GPU, its driver and PyTorch but no Go and no
# network. `make gpu-bundle` builds, on any x86-64 machine with Go, what this script runs into
# tests/gpu/bundle (test binaries, the benchmark, test data, MNIST); carry the repository with it.
#
# It runs the op suite on the GPU (every op and gradient against PyTorch's values), the optimizer
# parity, the normalisation and pooling layers' training fixtures, MNIST through the Accelerator on the GPU (≥ 97 %), and gpubench beside bench_torch.py:
# GEMM TFLOP/s (fp32, bf16 at 4096³ and 8192³) and the MLP training step. Aims: bf16 GEMM ≥ 90 %
# of PyTorch's, MLP step ≤ 1.2× PyTorch's. It prints a table and exits non-zero if a test fails.
# Budget: about 8 minutes.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
b="$here/bundle"
[ -x "$b/gpubench" ] || { echo "no bundle in $b: run make gpu-bundle on a machine with Go first" >&2; exit 2; }
export GOACCEL_MNIST_DIR="$b/mnist" GOACCEL_TEST_DEVICES=cuda
PY="${PYTHON:-python3}"
status=0
step() { # name timeout dir command...
	local name=$1 t=$2 dir=$3
	shift 3
	echo "== $name"
	local start=$SECONDS
	if (cd "$dir" && timeout "$t" "$@"); then
		echo "== $name: ok ($((SECONDS - start)) s)"
	else
		echo "== $name: FAILED ($((SECONDS - start)) s)"
		status=1
	fi
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo "(nvidia-smi not found)"
"$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))' 2>&1 | tail -1
# The first process JIT-compiles goaccel's PTX for this GPU; the driver caches the result.
step "goaccel sees the GPU" 120 "$b" ./gpubench -check
step "op suite on cuda:0" 240 "$b/tensors" ./tensors.test -test.run 'TestRequestedDevicesArePresent|TestOpsMatchPyTorchFixtures|TestAutocastOpsMatchPyTorchFP32|TestGradientsMatchFiniteDifferences|TestAdamAndSGDStepsAgree|TestAdaptiveStepsAgree|TestSumSquaresAndScaleChecks|TestBFloat16Operands|TestDeviceTensors|TestReachableTensorsAreNeverReclaimed' -test.v
step "optimizers on cuda:0" 60 "$b/optim" ./optim.test -test.run 'TestOptimizersMatchPyTorch' -test.v
step "normalisation and pooling layers on cuda:0" 60 "$b/nn" ./nn.test -test.run 'TestNormAndPoolLayersTrainAsPyTorch' -test.v
step "MNIST through the Accelerator on cuda:0" 180 "$b/accelerate" ./accelerate.test -test.run 'TestMNISTReachesAccuracyOnTheGPU' -test.v
echo "== benchmarks"
go_out=$(timeout 120 "$b/gpubench") || status=1
py_out=$(timeout 120 "$PY" "$here/bench_torch.py") || status=1
printf '%-16s %12s %12s %8s\n' measure goaccel pytorch ratio
while read -r name val unit; do
	pv=$(awk -v n="$name" '$1 == n {print $2}' <<<"$py_out")
	ratio=$(awk -v a="$val" -v b="$pv" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
	printf '%-16s %12s %12s %8s  %s (ratio goaccel/pytorch)\n' "$name" "$val" "${pv:--}" "$ratio" "$unit"
done <<<"$go_out"
exit $status
