#!/usr/bin/env bash
# tensors: engine benchmarks beside the same work in PyTorch, in one run (ratios, not absolutes,
# are meaningful on a shared machine). Go runs once with GOMAXPROCS=1 (PyTorch's best setting
# for the MLP step here is one thread) and once with the default.
set -uo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 bench/tensors_torch.py 1.0 || echo "PyTorch baseline unavailable (install python3-torch)"
GOMAXPROCS=1 go test -run '^$' -bench 'MLPStep|Add1M|Softmax|CrossEntropy|Conv2d' -benchmem -benchtime 1s ./tensors/
go test -run '^$' -bench 'MLPStep$' -benchmem -benchtime 1s ./tensors/
