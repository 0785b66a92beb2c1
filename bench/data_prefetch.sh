#!/usr/bin/env bash
# The Loader's prefetching, measured: one training step (MLP 784-512-512-10, AdamW, batch 128) on
# MNIST with a per-sample augmentation (random 2-pixel shift and noise, data.WithTransform), with
# batches prepared in Next (before: LoaderConfig.Prefetch = data.NoPrefetch) and on the prefetch
# goroutine (after: the default, 2 batches ahead). The two are alternated ROUNDS times in one run
# (BenchmarkMNISTTrainingWithTransform in data/bench_test.go); the table shows each one's best round
# and the speed-up, and the time a step spent in Next (preparing its batch, or waiting for it).
# Prefetching overlaps data preparation with the step only where a core is free:
# on a machine busy with other work it cannot help, so the load average is printed beside.
#
#   bench/data_prefetch.sh            # ROUNDS=5 STEPS=100
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
STEPS=${STEPS:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/data.test" ./data/
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
for round in $(seq "$ROUNDS"); do
	for mode in sync prefetch2; do
		"$tmp/data.test" -test.run '^$' -test.bench "^BenchmarkMNISTTrainingWithTransform/$mode\$" \
			-test.benchtime "${STEPS}x" | awk -v m="$mode" '/^Benchmark/ { print m, $3 / 1e6, $5, $7 }' >>"$tmp/runs"
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk '
	function lo(a, k, v) { if (!(k in a) || v < a[k]) a[k] = v }
	{ lo(wall, $1, $2); lo(cpu, $1, $3); lo(next_, $1, $4) }
	END {
		printf "%-34s %14s %14s %14s\n", "batches prepared", "wall ms/step", "cpu ms/step", "in Next ms"
		printf "%-34s %14.2f %14.2f %14.2f\n", "in Next (NoPrefetch, before)", wall["sync"], cpu["sync"], next_["sync"]
		printf "%-34s %14.2f %14.2f %14.2f\n", "on the prefetch goroutine (after)", wall["prefetch2"], cpu["prefetch2"], next_["prefetch2"]
		printf "speed-up of a step (before/after, best rounds): %.2fx\n", wall["sync"] / wall["prefetch2"]
	}' "$tmp/runs"
