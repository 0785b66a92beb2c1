"""PyTorch baseline for tensors/backend/cpu/internal/gemm: torch.mm GFLOP/s on the shapes of
BenchmarkSgemm (same names), at each requested thread count.

Prints one line per measurement, in `go test -bench` format so bench/gemm.sh
parses both sides the same way:
    BenchmarkTorchSgemm/<shape>-<threads>  <iters>  <ns/op> ns/op  <x> GFLOP/s
Run with the benchmarks' Python (bench/python.sh): .venv/hf/bin/python bench/gemm_torch.py --threads 1,2
"""
import argparse
import re
import time

import torch

SHAPES = (
    [(f"N={n}", False, False, n, n, n) for n in (256, 512, 1024, 2048)]
    + [  # name, transA, transB, m, n, k  (MLP 784-512-512-10, batch 128)
        ("fwd1_128x784x512_NT", False, True, 128, 512, 784),
        ("fwd2_128x512x512_NT", False, True, 128, 512, 512),
        ("fwd3_128x512x10_NT", False, True, 128, 10, 512),
        ("dx2_128x512x512_NN", False, False, 128, 512, 512),
        ("dx3_128x10x512_NN", False, False, 128, 512, 10),
        ("dW1_512x128x784_TN", True, False, 512, 784, 128),
        ("dW2_512x128x512_TN", True, False, 512, 512, 128),
        ("dW3_10x128x512_TN", True, False, 10, 512, 128),
    ]
)


def measure(ta, tb, m, n, k, min_time):
    """Median GFLOP/s over 5 timed batches of torch.mm into a preallocated C,
    and the GFLOP/s of the fastest single call (the least disturbed one on a
    shared machine). Returns (iters, (seconds per call, median), best)."""
    g = torch.Generator().manual_seed(1)
    a = torch.rand(k, m, generator=g) if ta else torch.rand(m, k, generator=g)
    b = torch.rand(n, k, generator=g) if tb else torch.rand(k, n, generator=g)
    a = a.t() if ta else a
    b = b.t() if tb else b
    c = torch.empty(m, n)
    flops = 2.0 * m * n * k
    torch.mm(a, b, out=c)
    iters, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < min_time / 5 or iters < 2:
        torch.mm(a, b, out=c)
        iters += 1
    rates, best = [], float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(iters):
            t1 = time.perf_counter()
            torch.mm(a, b, out=c)
            best = min(best, time.perf_counter() - t1)
        dt = time.perf_counter() - t0
        rates.append((dt / iters, flops * iters / dt / 1e9))
    rates.sort(key=lambda r: r[1])
    return iters, rates[len(rates) // 2], flops / best / 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", default="1,2", help="comma-separated torch.set_num_threads values")
    ap.add_argument("--min-time", type=float, default=0.5, help="seconds of timing per shape")
    ap.add_argument("--filter", default="", help="only shapes whose name matches this regexp")
    args = ap.parse_args()
    for t in (int(x) for x in args.threads.split(",")):
        torch.set_num_threads(t)
        for name, ta, tb, m, n, k in SHAPES:
            if not re.search(args.filter, name):
                continue
            iters, (sec, gf), best = measure(ta, tb, m, n, k, args.min_time)
            print(f"BenchmarkTorchSgemm/{name}-{t}\t{iters}\t{sec * 1e9:.0f} ns/op\t{gf:.2f} GFLOP/s\t{best:.2f} best-GFLOP/s",
                  flush=True)


if __name__ == "__main__":
    main()
