#!/usr/bin/env bash
# Side-by-side fp32 GEMM: tensors/backend/cpu/internal/gemm (Go) against torch.mm (PyTorch) on the same
# shapes at 1 and 2 threads. Each shape is measured by both back to back (torch, then
# Go fp32 and bf16) so both see the same machine load; rounds repeat that and the
# table shows medians, the Go/PyTorch ratios and the bf16/fp32 speed-up.
# GEMM_BENCH_ROUNDS (default 3) sets the rounds; GEMM_BENCH_FILTER a shape regexp.
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh # PyTorch in its steady state: see there
. bench/python.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/gemm.test" ./tensors/backend/cpu/internal/gemm/ || exit 1
exec "$PY" - "$tmp/gemm.test" "${GEMM_BENCH_ROUNDS:-3}" "${GEMM_BENCH_FILTER:-.}" <<'PYEOF'
import os, re, statistics, subprocess, sys
sys.path.insert(0, "bench")
binary, rounds, filt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    import torch
    import gemm_torch
except ImportError as e:
    torch = None
    print(f"PyTorch baseline unavailable ({e}): run scripts/deps.sh bench; Go numbers only")
if torch is not None:
    shapes = gemm_torch.SHAPES
else:  # same list without importing torch
    src = open("bench/gemm_torch.py").read()
    ns = {}
    exec(src[src.index("SHAPES ="):src.index("\n\n\ndef measure")], ns)
    shapes = ns["SHAPES"]
shapes = [s for s in shapes if re.search(filt, s[0])]
pat = re.compile(r"^Benchmark\S+\s+\d+\s+\S+ ns/op\s+([\d.]+) GFLOP/s\s+([\d.]+) best-GFLOP/s", re.M)

def go(bench, name, threads):
    out = subprocess.run([binary, "-test.run", "^$", "-test.bench", f"^{bench}$/^{re.escape(name)}$",
                          "-test.cpu", str(threads), "-test.benchtime", "0.4s"],
                         capture_output=True, text=True, check=True).stdout
    m = pat.search(out)
    return (float(m.group(1)), float(m.group(2))) if m else (float("nan"),) * 2

def load():
    return open("/proc/loadavg").read().split()[0]

res = {}
print(f"load average before: {load()} (2 CPUs)", flush=True)
for r in range(rounds):
    for name, ta, tb, m, n, k in shapes:
        for t in (1, 2):
            if torch is not None:
                torch.set_num_threads(t)
                _, (_, mean), best = gemm_torch.measure(ta, tb, m, n, k, 0.4)
                res.setdefault(("torch", name, t), []).append((mean, best))
            res.setdefault(("go", name, t), []).append(go("BenchmarkSgemm", name, t))
            res.setdefault(("bf16", name, t), []).append(go("BenchmarkSgemmBF16", name, t))
    print(f"round {r + 1}/{rounds} done, load average {load()}", flush=True)
print(f"load average after: {load()}")
print("PyTorch setting: torch.mm(a, b, out=c) on tensors without autograd (no graph, as on the Go side), "
      "at 1 and 2 threads; best/best compares each side's better thread count")

def table(title, stat):
    med = lambda key: (stat(statistics.median(v[0] for v in res[key]), max(v[1] for v in res[key]))
                       if key in res else float("nan"))
    print(f"\n{title}; ratios > 1 mean Go is faster")
    print(f"{'shape (m x k x n)':22}" + "".join(f"{h:>10}" for h in
          ["torch1T", "go1T", "go/pt", "torch2T", "go2T", "go/pt", "best/best", "bf16 2T", "bf16/f32"]))
    for name, *_ in shapes:
        t1, g1, t2, g2, b2 = (med(("torch", name, 1)), med(("go", name, 1)), med(("torch", name, 2)),
                              med(("go", name, 2)), med(("bf16", name, 2)))
        vals = [t1, g1, g1 / t1, t2, g2, g2 / t2, max(g1, g2) / max(t1, t2), b2, b2 / g2]
        print(f"{name:22}" + "".join(f"{v:10.2f}" if i in (2, 5, 6, 8) else f"{v:10.1f}" for i, v in enumerate(vals)))

table(f"GFLOP/s, median over {rounds} rounds of each run's mean", lambda mean, best: mean)
table(f"GFLOP/s of the fastest single call over {rounds} rounds (least disturbed by other load)", lambda mean, best: best)
PYEOF
