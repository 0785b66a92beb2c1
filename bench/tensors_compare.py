"""Reads the log of bench/tensors.sh and prints goaccel / PyTorch ratios, each side in its best
setting: the fastest of goaccel's runs (GOMAXPROCS 1 and the default) and the fastest of PyTorch's
1 and 2 threads and settings (fused=True or foreach=True optimizers, no_grad where the Go side has
no graph), as tensors_torch.py names them.

Usage: tensors_compare.py LOG. Two tables: process CPU time (steadier on a shared machine) and wall
time. Ratios below 1 mean goaccel is faster.
"""
import re
import sys

# label, Go benchmark, PyTorch workloads (their -threadsN lines; the fastest counts), bound (or None)
PAIRS = [
    ("MLP step fwd+bwd+SGD", "BenchmarkMLPStep", ["TorchMLPStepSGD-fused", "TorchMLPStepSGD-foreach"], None),
    ("MLP step fwd+bwd+AdamW", "BenchmarkMLPTrainStep", ["TorchMLPStepADAMW-fused", "TorchMLPStepADAMW-foreach"], 0.78),
    ("elementwise add 1M, released", "BenchmarkAdd1M", ["TorchAdd1M"], None),
    ("sum of 1M", "BenchmarkSum1M", ["TorchSum1M"], None),
    ("softmax 128x1000", "BenchmarkSoftmax", ["TorchSoftmax"], None),
    ("cross entropy fwd+bwd 128x1000", "BenchmarkCrossEntropyForwardBackward", ["TorchCrossEntropyForwardBackward"], None),
    ("conv2d fwd+bwd 32x16x28x28", "BenchmarkConv2dForwardBackward", ["TorchConv2dForwardBackward"], None),
    ("MNIST conv1 1->32 fwd+bwd b64", "BenchmarkConv2dMNIST/conv1", ["TorchConv2dMNIST/conv1"], None),
    ("MNIST conv2 32->64 fwd+bwd b64", "BenchmarkConv2dMNIST/conv2", ["TorchConv2dMNIST/conv2"], None),
]

UNIT = {"ns": 1e-3, "us": 1.0, "ms": 1e3}


def parse(path):
    """best[name][setting] = (wall µs, cpu µs), each the minimum over its runs; setting is the Go
    run's -N suffix (GOMAXPROCS) or PyTorch's threadsN."""
    best, settings = {}, {}
    for line in open(path):
        m = re.match(r"^# setting (\S+): (.*)$", line)
        if m:
            settings[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^(\S+?)(?:-(\d+|threads\d+))?\s", line)
        wall = re.search(r"\s([\d.]+) (ns|us|ms)/op", line)
        cpu = re.search(r"\s([\d.]+) cpu-(ns|us|ms)/op", line)
        if not (m and wall and cpu):
            continue
        name, setting = m.group(1), m.group(2) or "1"
        w = float(wall.group(1)) * UNIT[wall.group(2)]
        c = float(cpu.group(1)) * UNIT[cpu.group(2)]
        old = best.setdefault(name, {}).get(setting, (w, c))
        best[name][setting] = (min(old[0], w), min(old[1], c))
    return best, settings


def pick(runs, which):
    """The setting with the smallest value of field which (0 wall, 1 cpu) and that value."""
    s = min(runs, key=lambda k: runs[k][which])
    return s, runs[s][which]


def label_go(s):
    return f"GOMAXPROCS={s}"


def main():
    best, settings = parse(sys.argv[1])
    for which, title in ((1, "process CPU time"), (0, "wall time")):
        print(f"\n{title}, µs per op (best setting of each side; ratio < 1: goaccel faster)")
        print(f"{'work':32} {'goaccel':>10} {'PyTorch':>10} {'ratio':>6}  settings")
        for label, go, torches, bound in PAIRS:
            have = [t for t in torches if t in best]
            if go not in best or not have:
                continue
            gs, gv = pick(best[go], which)
            torch, (ts, tv) = min(((t, pick(best[t], which)) for t in have), key=lambda x: x[1][1])
            ts = ts.replace("threads", "threads=")
            print(f"{label:32} {gv:10.1f} {tv:10.1f} {gv / tv:6.2f}  goaccel {label_go(gs)}; "
                  f"PyTorch {ts}, {settings.get(torch, 'default')}")
            if bound and which == 0:
                gc, tc = pick(best[go], 1)[1], min(pick(best[t], 1)[1] for t in have)
                print(f"SUMMARY\t{label}\t{gv / 1e3:.2f} ms\t{tv / 1e3:.2f} ms\t{gv / tv:.2f}x\t{gc / tc:.2f}x\t{bound:.2f}")
        if "1" in best.get("BenchmarkAdd1M", {}) and "1" in best.get("BenchmarkMemcpy12MB", {}):
            add = best["BenchmarkAdd1M"]["1"][which]
            cp = best["BenchmarkMemcpy12MB"]["1"][which]
            print(f"elementwise add 1M {add:.1f} µs, Go's copy of the same 12 MB of traffic {cp:.1f} µs, both on one "
                  f"core (GOMAXPROCS=1): {add / cp:.2f}x a plain memory copy (bound 1.3)")


if __name__ == "__main__":
    main()
