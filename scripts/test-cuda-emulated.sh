#!/usr/bin/env bash
# The GPU path on an emulated CUDA machine: `make test-cuda-emulated` (which `make test` runs).
#
# It builds the fake libcuda, cuBLAS and NCCL of cuda/internal/fakelib (goaccel's kernel sources
# compiled for the CPU with g++, device memory of its own, asynchronous streams, real products
# and collectives), points the library search at it (GOACCEL_CUDA_LIBRARY_PATH) and runs, on
# device "cuda" through cuda/'s purego bindings:
#   - the device conformance suite (tensors/backend/backendtest: every method of the device
#     interface against float64 references, in every element type), and every PTX entry's
#     parameters against what Go marshals (cuda/...);
#   - the tensors op suite against the PyTorch fixtures, with autocast, attention, top-k,
#     multinomial and the edge cases, and the device suite on "cuda" as package tensors opens it
#     (GOACCEL_TEST_DEVICES=cuda: the GPU only);
#   - optimizer parity with PyTorch (optim), and the normalisation and pooling layers trained
#     against PyTorch's fixtures (nn);
#   - MNIST through the Accelerator (fp32, bf16, fp16), mixed precision and loss scaling, a
#     two-process data-parallel run over NCCL on two emulated GPUs, FULL_SHARD and HYBRID_SHARD
#     on two and four with NCCL's all-gathers and reduce-scatters on device memory (equal to
#     DDP's and the CPU's runs; memory_allocated 1/N of DDP's between steps), and the fine-tuning
#     loop of notebooks/finetune_text_classification.ipynb on a small BERT there (accelerate);
#   - a small pretrained BERT classifier (masked attention) against the CPU (transformers/bert),
#     and GPT-2, Llama and Mistral (logits, gradients, generation over the KV cache);
#   - the GPU benchmark's checks (tests/gpu/bench).
# It ends with the kernel coverage: emulated kernels launched: N distinct of M.
#
# With --tsan (`make test-cuda-tsan`) it runs the kernel suites with FAKE_CUDA_CAPTURE and
# replays every captured launch under ThreadSanitizer instead.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
start=$SECONDS
work=$(mktemp -d "${TMPDIR:-/tmp}/goaccel-cuda-emulated.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "== building the emulated CUDA machine (cached after the first build)"
$GO run ./cuda/internal/fakelib/cmd/fakecuda build "$work/lib"
export GOACCEL_CUDA_LIBRARY_PATH="$work/lib"
# TEST_TIMEOUT is each package's limit (go test's own 10 minutes by default; the arm64 run under
# emulation needs more). SKIP_TESTS, when set, is a -skip pattern for every package (the arm64 run
# leaves out the allocator's 10,000-iteration loops there).
run() {
	echo "== go test $*${SKIP_TESTS:+ -skip $SKIP_TESTS}"
	$GO test -count=1 -timeout "${TEST_TIMEOUT:-10m}" ${SKIP_TESTS:+-skip "$SKIP_TESTS"} "$@"
}

if [ "${1:-}" = --tsan ]; then
	mkdir "$work/capture"
	export FAKE_CUDA_CAPTURE="$work/capture"
	run -run 'TestCUDADevicePassesTheDeviceSuite' ./cuda/internal/device/
	GOACCEL_TEST_DEVICES=cuda run -run 'TestOpsMatchPyTorchFixtures|TestAutocastOpsMatchPyTorchFP32|TestGradientsMatchFiniteDifferences' ./tensors/
	unset FAKE_CUDA_CAPTURE
	echo "== replaying $(ls "$work/capture" | wc -l) captured launches under ThreadSanitizer"
	FAKE_CUDA_THREADS=${FAKE_CUDA_THREADS:-4} $GO run ./cuda/internal/fakelib/cmd/fakecuda replay "$work/capture"
	echo "test-cuda-tsan: $((SECONDS - start)) s"
	exit 0
fi

export FAKE_CUDA_COVERAGE="$work/coverage"
run ./cuda/ ./cuda/internal/device/ ./cuda/nccl/
GOACCEL_TEST_DEVICES=cuda run ./tensors/
run -run 'TestOptimizersMatchPyTorch|TestParamGroupsMatchPyTorch|TestLoadingPyTorchStateDictContinuesTheRun' ./optim/
GOACCEL_TEST_DEVICES=cuda run -run 'TestNormAndPoolLayersTrainAsPyTorch' ./nn/
# Four emulated GPUs here (FAKE_CUDA_DEVICES; two elsewhere): FSDP runs on two and on four.
FAKE_CUDA_DEVICES=4 run -run 'TestMNISTTrainsThroughTheAcceleratorOnCUDA|TestTrainingOnTwoGPUsOverNCCLMatchesOneCPUProcess|TestFSDPOnGPUsOverNCCLMatchesCPU|TestFineTuningOnTwoGPUsOverNCCLMatchesOneCPUProcess|TestFP16|TestMixedPrecision|TestLossScaler|TestGradScaler|TestClipGrad|TestAutocast|TestSaveModel|TestLoadState|TestAutomaticCheckpoints' ./accelerate/
run -run 'TestTinyBertRunsOnEveryDevice' ./transformers/bert/
run -run 'TestGPT2RunsOnEveryDevice|TestDecodersRunOnEveryDevice' ./transformers/gpt2/ ./transformers/llama/
run ./tests/gpu/bench/
$GO run ./cuda/internal/fakelib/cmd/fakecuda coverage "$FAKE_CUDA_COVERAGE"
echo "test-cuda-emulated: $((SECONDS - start)) s"
