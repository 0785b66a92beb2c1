#!/usr/bin/env bash
# GPU check of goaccel, for a machine with an NVIDIA GPU, its driver and PyTorch but no Go and no
# network. `make gpu-bundle` builds, on a Linux x86-64 machine with Go, what this script runs into
# tests/gpu/bundle: two test binaries (package tensors: the op suite and the optimizer kernels on
# cuda:0; package nn: the normalisation and pooling layers against PyTorch), gpubench (MNIST through the Accelerator, the benchmarks) and the MNIST files; carry the
# repository with it (the tests read their PyTorch fixtures from it).
#
# It runs the device conformance suite and the op suite on the GPU (every method of the device
# interface against float64 references; every op and gradient against PyTorch's values, the fused
# optimizer updates bit for bit against the CPU's, the edge cases), MNIST through the Accelerator
# on the GPU (three epochs, ≥ 97 %, float32 and bf16), and gpubench beside bench_torch.py: GEMM
# TFLOP/s (fp32, bf16 at 4096³ and 8192³) and the MLP training step. Aims: bf16 GEMM ≥ 90 % of
# PyTorch's, MLP step ≤ 1.2× PyTorch's. It prints a table and exits non-zero if a check fails.
#
# What the emulated GPU of `make test-cuda-emulated` cannot see, this checks: the driver's JIT
# of the PTX for the real GPU, warps that really run in lockstep and concurrently (the weak memory
# order between threads and blocks), cuBLAS's own kernels (TF32, tensor cores, their
# accumulation order) and the speed. Budget: about 8 minutes.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
b="$here/bundle"
[ -x "$b/gpubench" ] && [ -x "$b/tensors.test" ] && [ -x "$b/nn.test" ] || { echo "no bundle in $b: run make gpu-bundle on a machine with Go first" >&2; exit 2; }
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
step "op suite and optimizer kernels on cuda:0" 240 "$repo/tensors" "$b/tensors.test" -test.v -test.run 'TestRequestedDevicesArePresent|TestRequestedDevicesPassTheDeviceSuite|TestOpsMatchPyTorchFixtures|TestAutocastOpsMatchPyTorchFP32|TestGradientsMatchFiniteDifferences|TestAdamAndSGDStepsAgree|TestAdaptiveStepsAgree|TestReachableTensorsAreNeverReclaimed|TestDroppedTemporaries|TestSumSquaresAndScaleChecks|TestBFloat16Operands|TestDeviceTensors|TestOpsDispatch|TestCopyFromAndFill|TestAttention|TestMultinomial|TestTopK|TestOpsWithEveryHandleReleased|TestHeldTensors|TestGradKept|TestEmptyInputs|TestMaxPoolNaN'
step "normalisation and pooling layers on cuda:0" 60 "$repo/nn" "$b/nn.test" -test.v -test.run 'TestNormAndPoolLayersTrainAsPyTorch'
step "MNIST through the Accelerator on cuda:0" 180 "$b" ./gpubench -mnist
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
