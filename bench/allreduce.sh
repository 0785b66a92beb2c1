#!/usr/bin/env bash
# All-reduce bandwidth between 2 processes on this host, float32 sum of 4 MB
# and 64 MB: goaccel's dist (shared memory, BenchmarkAllReduce) against
# torch.distributed gloo (bench/allreduce_gloo.py), measured in the same run
# and alternated ROUNDS times; each side's best round is reported, as GB/s =
# bytes / time per all-reduce (torch's algbw), with the ratio.
#
#   bench/allreduce.sh            # ROUNDS=3 BENCHTIME=2s PYTHON=.venv/hf/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
ROUNDS=${ROUNDS:-3}
BENCHTIME=${BENCHTIME:-2s}
SECONDS_PER_SIZE=${BENCHTIME%s}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

go test -c -o "$out/dist.test" ./dist
have_torch=1
"$PY" -c 'import torch.distributed' 2>/dev/null || have_torch=0

for round in $(seq "$ROUNDS"); do
	"$out/dist.test" -test.run '^$' -test.bench 'BenchmarkAllReduce/shm/[0-9]+MB' -test.benchtime "$BENCHTIME" |
		awk '/^BenchmarkAllReduce\/shm\//{split($1,a,"/"); sub(/MB.*/,"",a[3]); print "goaccel", a[3], $(NF-1)/1000}' >>"$out/go"
	if [ "$have_torch" = 1 ]; then
		"$PY" bench/allreduce_gloo.py --sizes 4 64 --seconds "$SECONDS_PER_SIZE" |
			awk '/^gloo /{split($2,s,"="); split($4,g,"="); print "gloo", s[2], g[2]}' >>"$out/gloo"
	fi
done

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs; per round (GB/s):"
paste -d' ' <(awk '{print $1, $2 "MB", $3}' "$out/go") <(awk '{print "|", $1, $2 "MB", $3}' "$out/gloo" 2>/dev/null) | sed 's/^/  /'
best() { awk -v who="$1" -v mb="$2" '$1==who && $2==mb && $3>b {b=$3} END {printf "%.3f", b+0}' "$out/go" "$out/gloo" 2>/dev/null; }
[ -f "$out/gloo" ] || : >"$out/gloo"
printf "%-8s %14s %14s %8s\n" "size" "goaccel GB/s" "gloo GB/s" "ratio"
for mb in 4 64; do
	g=$(best goaccel "$mb")
	b=$(best gloo "$mb")
	ratio=$(awk -v g="$g" -v b="$b" 'BEGIN { if (b > 0) printf "%.2fx", g / b; else print "n/a" }')
	printf "%-8s %14s %14s %8s\n" "${mb}MB" "$g" "${b/#0.000/n/a}" "$ratio"
done
echo "gloo setting: dist.all_reduce (sum) of float32 CPU tensors, algbw; torch's thread count does not enter gloo's transfer"
[ "$have_torch" = 1 ] || echo "(no torch for $PY: run scripts/deps.sh bench to get the gloo baseline)"
