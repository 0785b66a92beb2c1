#!/usr/bin/python3
"""Derived executor benchmark: what a cell importing a package goaccel lacks costs.

Measures with jupyter_client, in one run:
  - the round trip of a trivial cell in the goaccel executor (before);
  - the first cell importing github.com/google/uuid: cold (no derived executor
    cached: yaegi extract and go build run; the Go build cache stays warm) and
    cached (a second session with the same import);
  - the round trip of a trivial cell in the derived executor (after), against
    before: the switch must leave it unchanged (ratio <= 1.1).

Usage: /usr/bin/python3 bench/derived_executor.py [--cells N]
The goaccel kernelspec must be installed (JUPYTER_DATA_DIR) and GOACCEL_CACHE
point at an empty folder. Prints a table and a JSON line ("RESULT {...}").
"""
import argparse
import json
import statistics
import time

from jupyter_client.manager import KernelManager

IMPORT = 'import "github.com/google/uuid"\nuuid.NewString() != ""'


def run_cell(kc, code, timeout=900):
    msg_id = kc.execute(code)
    deadline = time.monotonic() + timeout
    error = None
    while time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "error":
            error = msg["content"]["evalue"]
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            if error:
                raise RuntimeError(f"cell {code!r} failed: {error}")
            return
    raise RuntimeError("no idle status")


def trips(kc, n):
    for _ in range(5):  # warm up
        run_cell(kc, "1")
    out = []
    for _ in range(n):
        t0 = time.monotonic()
        run_cell(kc, "1")
        out.append(time.monotonic() - t0)
    return statistics.median(out) * 1e3


def session():
    km = KernelManager(kernel_name="goaccel")
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=200)
    args = ap.parse_args()
    km, kc = session()
    before = trips(kc, args.cells)
    t0 = time.monotonic()
    run_cell(kc, IMPORT)
    cold = time.monotonic() - t0
    after = trips(kc, args.cells)
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    km, kc = session()
    t0 = time.monotonic()
    run_cell(kc, IMPORT)
    cached = time.monotonic() - t0
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    res = {"cell_before_ms": before, "cell_after_ms": after, "after_over_before": after / before,
           "first_import_cold_s": cold, "first_import_cached_s": cached}
    print(f"trivial cell round trip: before {before:.2f} ms, after the switch {after:.2f} ms (x{after / before:.2f}, bound 1.1)")
    print(f"first cell importing github.com/google/uuid: cold {cold:.1f} s, cached {cached:.2f} s")
    print("RESULT " + json.dumps(res))


if __name__ == "__main__":
    main()
