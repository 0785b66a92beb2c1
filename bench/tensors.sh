#!/usr/bin/env bash
# tensors: engine benchmarks beside the same work in PyTorch 2.x, in one run. PyTorch runs every
# workload in its fastest documented settings (fused=True and foreach=True optimizers, the faster
# counting; torch.no_grad() where the Go side builds no graph) at 1 and 2 threads
# (bench/tensors_torch.py); Go runs with GOMAXPROCS=1 and
# with the default. Each side reports the best of 5 windows of about 0.4 s per round, in wall and
# in process CPU time (the machine is shared), over ROUNDS (2) alternated rounds;
# tensors_compare.py prints the ratios of each side's best setting and names the settings it used,
# and the elementwise add's time over a plain copy of the same 12 MB of memory traffic (bound 1.3).
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
mkdir -p bench/out
log=bench/out/tensors.log
: >"$log"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs" | tee -a "$log"
# Both sides run in each round, so each sees the machine's load of that moment; the best of the
# rounds counts (ROUNDS, default 2).
for round in $(seq "${ROUNDS:-2}"); do
	echo "# round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
	[ "$HAVE_TORCH" = 1 ] && "$PY" bench/tensors_torch.py 2.0 2>/dev/null | tee -a "$log"
	GOMAXPROCS=1 go test -run '^$' -bench 'MLPStep|Add1M|Sum1M|Memcpy12MB|Softmax|CrossEntropy|Conv2d|MatMul' -benchmem -benchtime 400ms -count 5 ./tensors/ | tee -a "$log"
	go test -run '^$' -bench 'MLPStep$|Add1M$|Sum1M|Softmax|CrossEntropy|Conv2d' -benchmem -benchtime 400ms -count 5 ./tensors/ | tee -a "$log"
	for procs in 1 2; do
		GOMAXPROCS=$procs go test -run '^$' -bench 'MLPTrainStep$' -benchmem -benchtime 400ms -count 5 ./nn/ | tee -a "$log"
	done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
/usr/bin/python3 bench/tensors_compare.py "$log"
