#!/usr/bin/python3
"""Reads the log of bench/tensors.sh and prints Go / PyTorch CPU-time ratios (best run of each).

Usage: tensors_compare.py LOG. Ratios below 1 mean goaccel used less CPU than PyTorch for the
same work; CPU time (not wall) is compared because the machine is shared.
"""
import re
import sys

PAIRS = [
    ("MLP step fwd+bwd+SGD", "BenchmarkMLPStep", "TorchMLPStepSGD-threads1"),
    ("elementwise add 1M", "BenchmarkAdd1M", "TorchAdd1M-threads1"),
    ("softmax 128x1000", "BenchmarkSoftmax", "TorchSoftmax-threads1"),
    ("cross entropy fwd+bwd 128x1000", "BenchmarkCrossEntropyForwardBackward", "TorchCrossEntropyForwardBackward-threads1"),
    ("conv2d fwd+bwd 32x16x28x28", "BenchmarkConv2dForwardBackward", "TorchConv2dForwardBackward-threads1"),
]


def parse(path):
    best = {}
    for line in open(path):
        m = re.match(r"^(\S+?)(?:-\d+)?\s.*?([\d.]+) cpu-(ms|us)/op", line)
        if not m:
            continue
        name, v, unit = m.group(1), float(m.group(2)), m.group(3)
        if unit == "ms":
            v *= 1000
        best[name] = min(best.get(name, v), v)
    return best


def main():
    best = parse(sys.argv[1])
    print(f"{'work':34} {'goaccel cpu-us':>15} {'PyTorch cpu-us':>15} {'ratio':>7}")
    for label, go, torch in PAIRS:
        if go in best and torch in best:
            print(f"{label:34} {best[go]:15.1f} {best[torch]:15.1f} {best[go] / best[torch]:7.2f}")


if __name__ == "__main__":
    main()
