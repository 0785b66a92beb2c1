"""PyTorch baseline of bench/temporaries (run by bench/temporaries.sh): the same lines of plain
code, each result dropped as Python drops it (its last reference goes when the name is rebound),
at 1 and 2 threads, in PyTorch's steady state (bench/torch_malloc.sh: glibc keeps freed buffers).

  temporaries_torch.py [SECONDS] [cpu|cuda]   timing lines "TorchAdd-threads2  130000 ns/op  ..."
  temporaries_torch.py --rss N                peak resident memory of N iterations of the add

The workloads match bench/temporaries/main.go: add, chain, mse, sumdim, matmul. Each warms up for
a second, then reports the best of five windows (wall and process CPU time per iteration).
"""
import sys
import time

import torch


def status(key):
    for line in open("/proc/self/status"):
        k, _, v = line.partition(":")
        if k == key:
            return float(v.split()[0]) / 1024
    raise SystemExit(f"no {key} in /proc/self/status")


def timeit(fn, wait, seconds):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 1.0:
        fn()
    wait()
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(5):
        n, t0, c0 = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - t0 < seconds / 5 or n < 2:
            fn()
            n += 1
        wait()
        best_wall = min(best_wall, (time.perf_counter() - t0) / n)
        best_cpu = min(best_cpu, (time.process_time() - c0) / n)
    return best_wall, best_cpu


def main():
    if sys.argv[1:2] == ["--rss"]:
        n = int(sys.argv[2])
        start = status("VmRSS")
        torch.manual_seed(0)
        x, y = torch.randn(1024, 1024), torch.randn(1024, 1024)
        for _ in range(n):
            _ = (x + y)[0, 0].item()
        print(f"torch rss iterations={n} rss_start_mib={start:.1f} peak_rss_mib={status('VmHWM'):.1f}")
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    device = sys.argv[2] if len(sys.argv) > 2 else "cpu"
    torch.manual_seed(0)
    x, y = torch.randn(1024, 1024, device=device), torch.randn(1024, 1024, device=device)
    a, w = torch.randn(256, 1024, device=device), torch.randn(1024, 1024, device=device) * 0.03

    def wait():
        if device != "cpu":
            torch.cuda.synchronize()

    # Each line reads one element of its result, as goaccel's side does (At, Item).
    def add():
        _ = (x + y)[0, 0].item()

    def chain():
        _ = ((x + y) * 0.5)[0, 0].item()

    def mse():
        _ = (x - y).pow(2).mean().item()

    def sumdim():
        _ = x.sum(1)[0].item()

    def matmul():
        _ = (a @ w).relu()[0, 0].item()

    work = [("Add", add), ("Chain", chain), ("MSE", mse), ("SumDim", sumdim), ("MatMul", matmul)]
    for threads in (1, 2) if device == "cpu" else (torch.get_num_threads(),):
        torch.set_num_threads(threads)
        for name, fn in work:
            wall, cpu = timeit(fn, wait, seconds)
            print(f"Torch{name}-threads{threads}\t{wall * 1e9:.0f} ns/op\t{cpu * 1e6:.1f} cpu-us/op", flush=True)


if __name__ == "__main__":
    main()
