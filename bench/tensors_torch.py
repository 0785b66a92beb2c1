#!/usr/bin/python3
"""PyTorch baselines for the tensors benchmarks (run by bench/tensors.sh beside go test -bench).

Prints Go-benchmark-style lines, e.g. "TorchMLPStep-threads1  6.30 ms/op", so one log compares
BenchmarkMLPStep (forward + cross entropy + backward + SGD, MLP 784-512-512-10, batch 128) with
the same step in PyTorch at each thread count.
"""
import sys
import time

import torch
import torch.nn.functional as F


def timeit(fn, min_time=2.0, reps=5):
    """Best-of-reps seconds per call (wall) and, in timeit.cpu, best process CPU seconds per call:
    on a shared machine the minimum over short windows is the steadiest figure."""
    for _ in range(3):
        fn()
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(reps):
        n, t0, c0 = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - t0 < min_time / reps or n < 2:
            fn()
            n += 1
        best_wall = min(best_wall, (time.perf_counter() - t0) / n)
        best_cpu = min(best_cpu, (time.process_time() - c0) / n)
    timeit.cpu = best_cpu
    return best_wall


def report(name, wall):
    print(f"{name}\t{wall * 1e9:.0f} ns/op\t{timeit.cpu * 1e6:.1f} cpu-us/op", flush=True)


def mlp_step(optim_name):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512),
                                torch.nn.ReLU(), torch.nn.Linear(512, 10))
    x, y = torch.randn(128, 784), torch.randint(0, 10, (128,))
    opt = torch.optim.SGD(model.parameters(), lr=0.01) if optim_name == "sgd" else torch.optim.AdamW(model.parameters(), lr=1e-3)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return step


def main():
    min_time = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for threads in (1, 2):
        torch.set_num_threads(threads)
        for name in ("sgd", "adamw"):
            wall = timeit(mlp_step(name), min_time)
            print(f"TorchMLPStep{name.upper()}-threads{threads}\t{wall * 1e3:.3f} ms/op\t{timeit.cpu * 1e3:.3f} cpu-ms/op", flush=True)
        x, y = torch.randn(1024, 1024), torch.randn(1024, 1024)
        report(f"TorchAdd1M-threads{threads}", timeit(lambda: x + y, min_time))
        s = torch.randn(128, 1000)
        report(f"TorchSoftmax-threads{threads}", timeit(lambda: s.softmax(1), min_time))
        lg, t = torch.randn(128, 1000, requires_grad=True), torch.randint(0, 1000, (128,))

        def ce():
            F.cross_entropy(lg, t).backward()
            lg.grad = None
        report(f"TorchCrossEntropyForwardBackward-threads{threads}", timeit(ce, min_time))
        cx = torch.randn(32, 16, 28, 28)
        cw, cb = torch.randn(32, 16, 3, 3, requires_grad=True), torch.zeros(32, requires_grad=True)

        def conv():
            F.conv2d(cx, cw, cb, stride=1, padding=1).sum().backward()
            cw.grad, cb.grad = None, None
        report(f"TorchConv2dForwardBackward-threads{threads}", timeit(conv, min_time))


if __name__ == "__main__":
    main()
