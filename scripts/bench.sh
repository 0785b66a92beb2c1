#!/usr/bin/env bash
# Runs every benchmark side by side with its baseline (PyTorch 2.x, Accelerate 1.x, transformers,
# ipykernel, gloo) in the same run. scripts/deps.sh bench installs what the baselines need (the
# PyPI PyTorch of .venv/hf, bench/python.sh); each bench/*.sh also runs on its own.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh bench || exit 1
mkdir -p bench/out
status=0
run() {
	echo "== $*"
	"$@" 2>&1 | tee -a bench/out/bench.log || status=1
}
: >bench/out/bench.log
for s in bench/*.sh; do
	case "$(basename "$s")" in
	python.sh | torch_malloc.sh | ops_profile.sh | minilm_dir.sh) continue ;; # sourced by the others
	esac
	run bash "$s"
done
run go test -run '^$' -bench . -benchmem -benchtime 2s ./tensors/... ./nn/... ./optim/... ./dist/... ./tensors/backend/cpu/internal/gemm/...
# The live loss plot's cost in an epoch of MNIST MLP training (tracker-%, bound 2 %), and one redraw.
run go test -run '^$' -bench NotebookTrackerOverhead -benchtime 10x ./accelerate/
run go test -run '^$' -bench LiveRedraw -benchtime 20x ./plots/
# A trivial cell through the session, in a small session and in one with 600 declarations, with
# and without the state file (its baseline: the bare yaegi Eval). A fixed count: a session's cost
# per cell grows with the cells it ran.
run go test -run '^$' -bench 'ExecuteTrivialCell|YaegiEvalBaseline' -benchtime 1000x ./kernel/internal/session/
# Decoding an exported program's arguments (a 4 MiB tensor).
run go test -run '^$' -bench DecodeArgs -benchmem ./notebook_launcher/
echo "log: bench/out/bench.log"
exit $status
