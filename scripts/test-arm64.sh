#!/usr/bin/env bash
# goaccel on linux/arm64, from an amd64 machine: programs built with GOARCH=arm64 run under
# qemu-aarch64 user-mode emulation, through the binfmt_misc handler qemu-user-static registers
# (scripts/deps.sh test installs and enables it), so `GOARCH=arm64 go test` just works and an arm64
# kernel starts its arm64 executors and workers like any program.
#
#   test-arm64.sh unit        the unit tests of tensors (the NEON kernels: gemm, cpu), nn, optim,
#                             accelerate, dist (NEON sums, shared memory) and the cells engine
#                             (kernel/internal/cells, the interpreter and its arm64 std tables)
#                             built for arm64 and run under emulation (make test-platforms), with
#                             -short: the MNIST trainings and multi-process jobs that -short
#                             leaves out take an emulated quarter of an hour and test nothing of
#                             the platform that the notebooks below do not;
#   test-arm64.sh notebooks   notebooks/quickstart.ipynb and mnist_ddp.ipynb executed headless by a
#                             kernel built for arm64 and by one built for this machine, with
#                             nbconvert, and their outputs compared (make test-arm64-notebooks);
#   test-arm64.sh cuda        the emulated-GPU suite (scripts/test-cuda-emulated.sh) with goaccel
#                             and the fake libcuda both built for arm64 (make test-cuda-emulated-arm64).
#
# The emulated programs load the aarch64 C library of Debian's cross toolchain
# (QEMU_LD_PREFIX); cgo is off (purego loads libraries without it).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
JUPYTER=${JUPYTER:-/usr/bin/jupyter}
start=$SECONDS
if ! grep -qs '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64; then
	echo "test-arm64: arm64 programs cannot run here: no enabled qemu-aarch64 binfmt_misc handler;" >&2
	echo "install qemu-user-static and binfmt-support (scripts/deps.sh test does, as root)" >&2
	exit 1
fi
export QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
[ -e "$QEMU_LD_PREFIX/lib/ld-linux-aarch64.so.1" ] || {
	echo "test-arm64: no aarch64 C library in $QEMU_LD_PREFIX: install g++-aarch64-linux-gnu (scripts/deps.sh test does)" >&2
	exit 1
}
arm64() { GOOS=linux GOARCH=arm64 CGO_ENABLED=0 "$@"; }

case "${1:-}" in
unit)
	# TestGPTTrainingStepRecyclesMemory averages a step's allocations over as many steps as one
	# second allows (testing.Benchmark): far fewer under emulation, where the average went over
	# its 400 KiB budget in 2 runs of 5 (413 and 493 KiB); it is left to the native run.
	arm64 $GO test -short -count=1 -timeout 30m -skip '^TestGPTTrainingStepRecyclesMemory$' ./internal/neon/ ./tensors/... ./nn/... ./optim/... ./accelerate/... \
		./dist/... ./kernel/internal/cells/... ./kernel/internal/interpreter/...
	;;
notebooks)
	work=$(mktemp -d "${TMPDIR:-/tmp}/goaccel-arm64-notebooks.XXXXXX")
	for arch in arm64 native; do
		mkdir -p "$work/$arch"
		if [ $arch = arm64 ]; then
			arm64 $GO build -o "$work/$arch/goaccel" ./cmd/goaccel
		else
			$GO build -o "$work/$arch/goaccel" ./cmd/goaccel
		fi
		JUPYTER_DATA_DIR="$work/$arch/jupyter" "$work/$arch/goaccel" install >/dev/null
		for nb in quickstart mnist_ddp; do
			t=$SECONDS
			JUPYTER_DATA_DIR="$work/$arch/jupyter" GOACCEL_CACHE="$work/$arch/cache" \
				$JUPYTER nbconvert --to notebook --execute --ExecutePreprocessor.timeout=3000 \
				--ExecutePreprocessor.kernel_name=goaccel --output-dir "$work/$arch" --output $nb \
				notebooks/$nb.ipynb 2>&1 | grep -v '^\[NbConvertApp\]' || true
			[ -s "$work/$arch/$nb.ipynb" ] || { echo "test-arm64: $nb did not run on $arch" >&2; exit 1; }
			echo "$nb on $arch: $((SECONDS - t)) s"
		done
	done
	python3 scripts/compare_notebooks.py "$work/native" "$work/arm64" quickstart mnist_ddp ||
		{ echo "test-arm64: the executed notebooks are kept in $work" >&2; exit 1; }
	rm -rf "$work"
	;;
cuda)
	# The emulated GPU's kernels run emulated too: a package takes well over go test's default
	# 10 minutes (the device suite's attention). The allocator's 10,000-iteration loops of 4 MB
	# temporaries (cuda/ and tensors/: the pacer and the caching allocator, Go code that the
	# native run checks) are left out: cuda/'s alone was still running after 29 CPU-minutes under
	# qemu. The fake's kernels run on one thread (FAKE_CUDA_THREADS=1): under qemu a thread
	# switch is a system call. A package may take 4 hours: accelerate's GPU line (MNIST, the
	# fine-tuning loop and NCCL data parallelism on two emulated GPUs, FSDP on two and four) ran
	# 69 minutes to the end of the fine-tuning test and then past go test's 90 minutes inside FSDP
	# on a machine shared with a CI run.
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 CXX=${CXX_ARM64:-aarch64-linux-gnu-g++} GO=$GO TEST_TIMEOUT=${TEST_TIMEOUT:-240m} \
		FAKE_CUDA_THREADS=${FAKE_CUDA_THREADS:-1} \
		SKIP_TESTS=${SKIP_TESTS:-'^(TestDroppedDeviceTemporariesAreRecycled|TestDroppedDeviceTemporariesKeepDeviceMemoryBounded|TestDroppedTemporariesKeepMemoryBounded|TestKernelsNeverSeeAReclaimedBuffer)$'} \
		scripts/test-cuda-emulated.sh
	;;
*)
	echo "usage: scripts/test-arm64.sh unit | notebooks | cuda" >&2
	exit 2
	;;
esac
echo "test-arm64 $1: $((SECONDS - start)) s"
