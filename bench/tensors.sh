#!/usr/bin/env bash
# tensors: engine benchmarks beside the same work in PyTorch, in one run. Both sides report the
# best of several short windows in process CPU time (the machine is shared, so wall time and
# single long runs are noisy); tensors_compare.py prints the ratios. Go runs with GOMAXPROCS=1
# (PyTorch's best setting for the MLP step here is one thread), then once with the default.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
log=bench/out/tensors.log
: >"$log"
/usr/bin/python3 bench/tensors_torch.py 2.0 | tee -a "$log" || echo "PyTorch baseline unavailable (install python3-torch)"
GOMAXPROCS=1 go test -run '^$' -bench 'MLPStep|Add1M|Softmax|CrossEntropy|Conv2d|MatMul' -benchmem -benchtime 1s -count 3 ./tensors/ | tee -a "$log"
go test -run '^$' -bench 'MLPStep$' -benchmem -benchtime 1s ./tensors/ | tee -a "$log"
/usr/bin/python3 bench/tensors_compare.py "$log"
