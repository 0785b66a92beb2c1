#!/usr/bin/python3
"""Reads the log of bench/tensors.sh and prints goaccel / PyTorch ratios, each side in its best
setting: the fastest of goaccel's runs (GOMAXPROCS 1 and the default) and the faster of PyTorch's
1 and 2 threads, in the setting tensors_torch.py names (foreach=True optimizers, no_grad where the
Go side has no graph).

Usage: tensors_compare.py LOG. Two tables: process CPU time (steadier on a shared machine) and wall
time. Ratios below 1 mean goaccel is faster.
"""
import re
import sys

# label, Go benchmark, PyTorch workload (its -threadsN lines)
PAIRS = [
    ("MLP step fwd+bwd+SGD", "BenchmarkMLPStep", "TorchMLPStepSGD"),
    ("MLP step fwd+bwd+AdamW", "BenchmarkMLPTrainStep", "TorchMLPStepADAMW"),
    ("elementwise add 1M", "BenchmarkAdd1M", "TorchAdd1M"),
    ("sum of 1M", "BenchmarkSum1M", "TorchSum1M"),
    ("softmax 128x1000", "BenchmarkSoftmax", "TorchSoftmax"),
    ("cross entropy fwd+bwd 128x1000", "BenchmarkCrossEntropyForwardBackward", "TorchCrossEntropyForwardBackward"),
    ("conv2d fwd+bwd 32x16x28x28", "BenchmarkConv2dForwardBackward", "TorchConv2dForwardBackward"),
    ("MNIST conv1 1->32 fwd+bwd b64", "BenchmarkConv2dMNIST/conv1", "TorchConv2dMNIST/conv1"),
    ("MNIST conv2 32->64 fwd+bwd b64", "BenchmarkConv2dMNIST/conv2", "TorchConv2dMNIST/conv2"),
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
        for label, go, torch in PAIRS:
            if go not in best or torch not in best:
                continue
            gs, gv = pick(best[go], which)
            ts, tv = pick(best[torch], which)
            ts = ts.replace("threads", "threads=")
            print(f"{label:32} {gv:10.1f} {tv:10.1f} {gv / tv:6.2f}  goaccel {label_go(gs)}; "
                  f"PyTorch {ts}, {settings.get(torch, 'default')}")
        if "1" in best.get("BenchmarkAdd1M", {}) and "1" in best.get("BenchmarkMemcpy12MB", {}):
            add = best["BenchmarkAdd1M"]["1"][which]
            cp = best["BenchmarkMemcpy12MB"]["1"][which]
            print(f"elementwise add 1M {add:.1f} µs, Go's copy of the same 12 MB of traffic {cp:.1f} µs, both on one "
                  f"core (GOMAXPROCS=1): {add / cp:.2f}x a plain memory copy (bound 1.3)")


if __name__ == "__main__":
    main()
