"""PyTorch baselines for the tensors benchmarks (run by bench/tensors.sh beside go test -bench).

Every workload runs in PyTorch's fastest documented settings for it, at 1 and at 2 threads
(tensors_compare.py takes the best and says which):
  - optimizers both fused (fused=True: one kernel for all parameters, PyTorch 2.4+'s fastest on
    the CPU) and foreach=True (the multi-tensor path), each its own line (suffix -fused,
    -foreach), gradients dropped with zero_grad(set_to_none=True) as goaccel does;
  - ops whose Go benchmark builds no autograd graph under torch.no_grad();
  - glibc told (bench/torch_malloc.sh) to keep freed large buffers for reuse, so PyTorch's
    allocations do not fault in fresh pages on every call.

Prints Go-benchmark-style lines, e.g. "TorchMLPStepADAMW-threads1  5.30 ms/op  5.28 cpu-ms/op",
and one "# setting NAME: ..." line per workload naming its setting.
"""
import sys
import time

import torch
import torch.nn.functional as F

SETTINGS = {
    "TorchMLPStepSGD-fused": "SGD(fused=True), zero_grad(set_to_none=True)",
    "TorchMLPStepSGD-foreach": "SGD(foreach=True), zero_grad(set_to_none=True)",
    "TorchMLPStepADAMW-fused": "AdamW(fused=True, weight_decay=0.01), zero_grad(set_to_none=True)",
    "TorchMLPStepADAMW-foreach": "AdamW(foreach=True, weight_decay=0.01), zero_grad(set_to_none=True)",
    "TorchAdd1M": "torch.no_grad()",
    "TorchSum1M": "torch.no_grad()",
    "TorchSoftmax": "torch.no_grad()",
    "TorchCrossEntropyForwardBackward": "autograd (the Go side builds a graph too)",
    "TorchConv2dForwardBackward": "autograd (the Go side builds a graph too)",
    "TorchConv2dMNIST/conv1": "autograd, no input gradient (the Go side builds the same graph)",
    "TorchConv2dMNIST/conv2": "autograd (the Go side builds a graph too)",
}


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


def no_grad(fn):
    def run():
        with torch.no_grad():
            return fn()
    return run


def mlp_step(optim_name, variant):
    """One training step of MLP 784-512-512-10 at batch 128: BenchmarkMLPStep (SGD, lr 0.01) and
    nn's BenchmarkMLPTrainStep (AdamW, lr 1e-3, weight decay 0.01)."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512),
                                torch.nn.ReLU(), torch.nn.Linear(512, 10))
    x, y = torch.randn(128, 784), torch.randint(0, 10, (128,))
    kw = {variant: True}  # fused=True or foreach=True
    if optim_name == "sgd":
        opt = torch.optim.SGD(model.parameters(), lr=0.01, **kw)
    else:
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01, **kw)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return step


def main():
    min_time = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    capability = [l.strip() for l in torch.__config__.show().splitlines() if "CPU capability" in l]
    print(f"# torch {torch.__version__}; {capability[0] if capability else 'CPU capability unknown'}")
    for name, setting in SETTINGS.items():
        print(f"# setting {name}: {setting}")
    for threads in (1, 2):
        torch.set_num_threads(threads)
        for name in ("sgd", "adamw"):
            for variant in ("fused", "foreach"):
                wall = timeit(mlp_step(name, variant), min_time)
                print(f"TorchMLPStep{name.upper()}-{variant}-threads{threads}\t{wall * 1e3:.3f} ms/op\t{timeit.cpu * 1e3:.3f} cpu-ms/op", flush=True)
        x, y = torch.randn(1024, 1024), torch.randn(1024, 1024)
        report(f"TorchAdd1M-threads{threads}", timeit(no_grad(lambda: x + y), min_time))
        report(f"TorchSum1M-threads{threads}", timeit(no_grad(lambda: x.sum()), min_time))
        s = torch.randn(128, 1000)
        report(f"TorchSoftmax-threads{threads}", timeit(no_grad(lambda: s.softmax(1)), min_time))
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
        for name, cin, cout, hw, input_grad in (("conv1", 1, 32, 28, False), ("conv2", 32, 64, 26, True)):
            mx = torch.randn(64, cin, hw, hw, requires_grad=input_grad)
            mw = (torch.randn(cout, cin, 3, 3) * 0.1).requires_grad_(True)
            mb = torch.zeros(cout, requires_grad=True)

            def mconv(mx=mx, mw=mw, mb=mb):
                F.conv2d(mx, mw, mb).sum().backward()
                mw.grad, mb.grad, mx.grad = None, None, None
            report(f"TorchConv2dMNIST/{name}-threads{threads}", timeit(mconv, min_time))


if __name__ == "__main__":
    main()
