#!/usr/bin/env bash
# Side-by-side fp32 GEMM: internal/gemm (Go) against torch.mm (PyTorch), same shapes,
# 1 and 2 threads, interleaved rounds so both see the same machine load; prints
# medians over the rounds, the Go/PyTorch ratio and the bf16/fp32 speed-up.
# GEMM_BENCH_ROUNDS (default 3) sets the rounds; GEMM_BENCH_FILTER a shape regexp.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-/usr/bin/python3}
ROUNDS=${GEMM_BENCH_ROUNDS:-3}
FILTER=${GEMM_BENCH_FILTER:-.}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/gemm.test" ./internal/gemm/ || exit 1
echo "load before: $(uptime)"
for r in $(seq "$ROUNDS"); do
	if ! "$PY" bench/gemm_torch.py --threads 1,2 --min-time 0.5 --filter "$FILTER" >>"$tmp/torch.txt"; then
		echo "PyTorch baseline failed: install python3-torch (scripts/deps.sh) for the comparison" >&2
	fi
	"$tmp/gemm.test" -test.run '^$' -test.bench "Sgemm(BF16)?/$FILTER" -test.cpu 1,2 -test.benchtime 0.5s >>"$tmp/go.txt" || exit 1
	echo "round $r/$ROUNDS done: $(uptime)"
done
echo "load after: $(uptime)"
"$PY" - "$tmp/torch.txt" "$tmp/go.txt" <<'PYEOF'
import re, statistics, sys
res = {}  # (impl, shape, threads) -> [GFLOP/s]
pat = re.compile(r"^Benchmark(TorchSgemm|SgemmBF16|Sgemm)/(\S+?)(?:-(\d+))?\s+\d+\s+\S+ ns/op\s+([\d.]+) GFLOP/s")
order = []
for path in sys.argv[1:]:
    for line in open(path):
        m = pat.match(line)
        if not m:
            continue
        impl, shape, t, gf = m.group(1), m.group(2), int(m.group(3) or 1), float(m.group(4))
        res.setdefault((impl, shape, t), []).append(gf)
        if shape not in order and impl != "TorchSgemm":
            order.append(shape)
med = lambda k: statistics.median(res[k]) if k in res else float("nan")
hdr = f"{'shape (m x k x n)':22}" + "".join(f"{h:>9}" for h in
      ["torch1T", "go1T", "go/pt", "torch2T", "go2T", "go/pt", "bf16 2T", "bf16/f32"])
print("GFLOP/s, median of", len(next(iter(res.values()), [])), "rounds")
print(hdr)
for s in order:
    t1, g1, t2, g2, b2 = (med(("TorchSgemm", s, 1)), med(("Sgemm", s, 1)), med(("TorchSgemm", s, 2)),
                          med(("Sgemm", s, 2)), med(("SgemmBF16", s, 2)))
    print(f"{s:22}" + "".join(f"{v:9.1f}" for v in [t1, g1]) + f"{g1 / t1:9.2f}"
          + "".join(f"{v:9.1f}" for v in [t2, g2]) + f"{g2 / t2:9.2f}" + f"{b2:9.1f}{b2 / g2:9.2f}")
PYEOF
