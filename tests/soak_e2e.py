#!/usr/bin/env python3
"""A long session through the real kernel: memory of its process tree.

Run by tests/soak_test.go with JUPYTER_DATA_DIR pointing at a temporary
directory where the freshly built kernel is installed. It starts the kernel
with jupyter_client, runs a setup cell, then re-runs one cell RUNS times and
measures the proportional set size (Pss, /proc/PID/smaps_rollup: shared pages
counted once across the tree) of the kernel process and all its descendants
(the executor) at the start and after every quarter of the runs, then once
more after the session has been idle for IDLE seconds. It prints one JSON
object per shape for the Go test to check; it exits 1 if a cell failed.

usage: soak_e2e.py RUNS IDLE
"""
import json
import os
import sys
import time

from jupyter_client.manager import KernelManager

SHAPES = [
    # name, setup cell, cell re-run
    ("tensor", 'import "github.com/goaccel/goaccel/tensors"\nacc := 0.0',
     "x := tensors.Randn(256, 256); acc += x.Sum().Item()"),
]


def tree(pid):
    """pid and its descendants (children of every thread)."""
    out = [pid]
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tasks:
        try:
            kids = open(f"/proc/{pid}/task/{t}/children").read().split()
        except OSError:
            continue
        for k in kids:
            out += tree(int(k))
    return out


def pss_mib(pid):
    total = 0
    try:
        for line in open(f"/proc/{pid}/smaps_rollup"):
            if line.startswith("Pss:"):
                total += int(line.split()[1])
    except OSError:
        pass
    return total / 1024


def tree_mib(pid):
    return sum(pss_mib(p) for p in tree(pid))


def run(kc, code):
    reply = kc.execute_interactive(code, timeout=120, output_hook=lambda m: None)
    if reply["content"]["status"] != "ok":
        print("FAIL: cell %r: %s" % (code, reply["content"]), flush=True)
        sys.exit(1)


def soak(name, setup, cell, runs, idle):
    km = KernelManager(kernel_name="goaccel")
    km.start_kernel()
    try:
        kc = km.client()
        kc.start_channels()
        kc.wait_for_ready(timeout=60)
        pid = km.provisioner.process.pid
        run(kc, setup)
        start = time.time()
        samples = [(0, tree_mib(pid))]
        for i in range(1, runs + 1):
            run(kc, cell)
            if i % (runs // 4) == 0:
                samples.append((i, tree_mib(pid)))
        took = time.time() - start
        time.sleep(idle)
        result = {"shape": name, "cell": cell, "processes": len(tree(pid)),
                  "samples": samples, "idle": tree_mib(pid), "seconds": took}
        print(json.dumps(result), flush=True)
        kc.stop_channels()
    finally:
        km.shutdown_kernel(now=True)


def main():
    runs, idle = int(sys.argv[1]), float(sys.argv[2])
    for name, setup, cell in SHAPES:
        soak(name, setup, cell, runs, idle)


main()
