#!/usr/bin/python3
"""Kernel latency benchmark: goaccel against ipykernel, measured in the same run
with jupyter_client.

Measures, for each kernel:
  - start-up: KernelManager.start_kernel() until the first kernel_info_reply;
  - round trip of a trivial cell: execute_request until status idle on iopub;
  - a cell printing 10,000 lines, until idle;
  - interrupting a busy loop (interrupt_kernel) until idle.

Usage: /usr/bin/python3 bench/kernel_bench.py [--starts N] [--cells N]
The goaccel kernelspec must be installed (goaccel install, or JUPYTER_DATA_DIR).
Prints a table and a JSON line ("RESULT {...}") with medians, p90s and ratios.
"""
import argparse
import json
import statistics
import sys
import time

from jupyter_client.manager import KernelManager

TRIVIAL = {"goaccel": "1", "python3": "1"}
PRINT_10K = {"goaccel": 'import "fmt"\nfor i := 0; i < 10000; i++ { fmt.Println(i) }',
             "python3": "for i in range(10000): print(i)"}
BUSY_LOOP = {"goaccel": "for {}", "python3": "while True: pass"}


def pct(xs, p):
    xs = sorted(xs)
    k = (len(xs) - 1) * p
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def first_kernel_info(kc, deadline):
    """Send kernel_info_request until a reply arrives; return when it does."""
    while time.monotonic() < deadline:
        msg_id = kc.kernel_info()
        end = time.monotonic() + 0.5
        while time.monotonic() < end:
            try:
                reply = kc.get_shell_msg(timeout=0.01)
            except Exception:
                continue
            if reply["parent_header"].get("msg_id") == msg_id:
                return
    raise RuntimeError("no kernel_info_reply")


def wait_idle(kc, msg_id, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=timeout)
        if (msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "status"
                and msg["content"]["execution_state"] == "idle"):
            return
    raise RuntimeError("no idle status")


def bench_kernel(name, starts, cells):
    start_times = []
    for _ in range(starts):
        km = KernelManager(kernel_name=name)
        t0 = time.monotonic()
        km.start_kernel()
        kc = km.client()
        kc.start_channels()
        first_kernel_info(kc, time.monotonic() + 60)
        start_times.append(time.monotonic() - t0)
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    for _ in range(5):  # warm up
        wait_idle(kc, kc.execute(TRIVIAL[name]))
    trips = []
    for _ in range(cells):
        t0 = time.monotonic()
        msg_id = kc.execute(TRIVIAL[name])
        wait_idle(kc, msg_id)
        trips.append(time.monotonic() - t0)
    prints = []
    wait_idle(kc, kc.execute(PRINT_10K[name]))  # warm up (and the import)
    for _ in range(5):
        t0 = time.monotonic()
        wait_idle(kc, kc.execute(PRINT_10K[name]))
        prints.append(time.monotonic() - t0)
    interrupts = []
    for _ in range(5):
        msg_id = kc.execute(BUSY_LOOP[name])
        time.sleep(0.3)
        t0 = time.monotonic()
        km.interrupt_kernel()  # message for goaccel, SIGINT for ipykernel (their kernelspecs)
        wait_idle(kc, msg_id)
        interrupts.append(time.monotonic() - t0)
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    return {
        "startup_median_ms": statistics.median(start_times) * 1e3,
        "startup_p90_ms": pct(start_times, 0.9) * 1e3,
        "cell_median_ms": statistics.median(trips) * 1e3,
        "cell_p90_ms": pct(trips, 0.9) * 1e3,
        "print_10k_lines_median_ms": statistics.median(prints) * 1e3,
        "interrupt_median_ms": statistics.median(interrupts) * 1e3,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--starts", type=int, default=5)
    ap.add_argument("--cells", type=int, default=200)
    args = ap.parse_args()
    res = {k: bench_kernel(k, args.starts, args.cells) for k in ("goaccel", "python3")}
    print(f"{'metric':22} {'goaccel':>10} {'ipykernel':>10} {'ratio':>7}")
    ratios = {}
    for m in res["goaccel"]:
        g, p = res["goaccel"][m], res["python3"][m]
        ratios[m] = g / p
        print(f"{m:22} {g:10.2f} {p:10.2f} {g / p:7.2f}")
    print("RESULT " + json.dumps({"goaccel": res["goaccel"], "ipykernel": res["python3"], "ratio": ratios}))


if __name__ == "__main__":
    sys.exit(main())
