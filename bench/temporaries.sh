#!/usr/bin/env bash
# temporaries: plain code as a user writes it, with no Release (bench/temporaries: an add, a chain of
# two ops, a chain ending in a reduction, a row reduction, a product and its ReLU, on 1024×1024
# float32 tensors), beside the same lines in PyTorch (bench/temporaries_torch.py, at 1 and 2
# threads, in its steady state: bench/torch_malloc.sh), ROUNDS (2) alternated rounds, each side
# reporting the best of five windows; and the peak resident memory of 10,000 iterations of the
# add (4 MB temporaries) on each side. goaccel runs with GOMAXPROCS=1 and with the default (what
# a user gets). The ratios are goaccel's plain code at the default, and at its better setting,
# over PyTorch 2.x's better thread count (bound 1.2 for the add and the chain, 1.5 for the rest);
# goaccel's Released lines (the same work with
# every temporary released) show what the explicit path gives. DEVICE=cuda runs both sides on the
# first GPU.
#
# Then the same lines and the same 10,000 adds on the emulated GPU of make test-cuda-emulated
# (cuda/internal/fakelib: goaccel's CUDA kernels run on the CPU, behind the real bindings, the
# device's caching allocator and its pacer), unless DEVICE=cuda or EMULATED=0: the peak of device
# memory in use (cuda.MaxMemoryAllocated, as torch.cuda.max_memory_allocated) beside the process's
# resident memory, and plain code's time over the released lines' on that device (bound 1.5).
# The emulator's times are the CPU's running GPU kernels, so no PyTorch figure stands beside them.
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh
. bench/python.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/temporaries" ./bench/temporaries || exit 1
device=${DEVICE:-cpu}
log="$tmp/log"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs" | tee -a "$log"
for round in $(seq "${ROUNDS:-2}"); do
	echo "# round $round, load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
	"$tmp/temporaries" -time 2 -device "$device" | tee -a "$log"
	GOMAXPROCS=1 "$tmp/temporaries" -time 2 -device "$device" | tee -a "$log"
	[ "$HAVE_TORCH" = 1 ] && "$PY" bench/temporaries_torch.py 2 "$device" 2>/dev/null | tee -a "$log"
done
"$tmp/temporaries" -rss 10000 -device "$device" | tee -a "$log"
[ "$HAVE_TORCH" = 1 ] && "$PY" bench/temporaries_torch.py --rss 10000 2>/dev/null | tee -a "$log"
if [ "$device" = cpu ] && [ "${EMULATED:-1}" != 0 ]; then
	echo "# the emulated GPU: building it (g++), load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
	if go run ./cuda/internal/fakelib/cmd/fakecuda build "$tmp/lib"; then
		GOACCEL_CUDA_LIBRARY_PATH="$tmp/lib" "$tmp/temporaries" -time 2 -device cuda -run add,chain,mse,sumdim | sed 's/^/emulated /' | tee -a "$log"
		GOACCEL_CUDA_LIBRARY_PATH="$tmp/lib" "$tmp/temporaries" -rss 10000 -device cuda | sed 's/^/emulated /' | tee -a "$log"
	else
		echo "the emulated GPU did not build (scripts/deps.sh test installs g++)" | tee -a "$log"
		echo "emulated-failed" >>"$log"
	fi
fi
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
/usr/bin/python3 - "$log" <<'PY'
import re, sys
best = {"cpu": {}, "emulated": {}}
cpus = {}  # process CPU µs per iteration, best per (name, setting), CPU device only
rss = {}
emulated_failed = False
for line in open(sys.argv[1]):
    emulated = line.startswith("emulated ")
    side = "emulated" if emulated else "cpu"
    line = line.removeprefix("emulated ")
    emulated_failed = emulated_failed or line.startswith("emulated-failed")
    m = re.match(r"^(\w+)-(\S+)\t(\d+) ns/op\t([\d.]+) cpu-us/op", line)
    if m:
        name, setting, ns = m.group(1), m.group(2), int(m.group(3))
        b = best[side].setdefault(name, {})
        b[setting] = min(b.get(setting, ns), ns)
        if side == "cpu":
            c = cpus.setdefault(name, {})
            c[setting] = min(c.get(setting, float(m.group(4))), float(m.group(4)))
        continue
    m = re.match(r"^(goaccel|torch) rss iterations=(\d+) rss_start_mib=([\d.]+) peak_rss_mib=([\d.]+)(?: device_start_mib=([\d.]+) device_peak_mib=([\d.]+))?", line)
    if m:
        rss[(side, m.group(1))] = [float(g) if g else None for g in m.group(3, 4, 5, 6)]
cpu = best["cpu"]
print(f"\n{'plain code, µs per iteration':24} {'goaccel':>9} {'best':>9} {'released':>9} {'PyTorch':>9} {'ratio':>6} {'best':>6}  settings")
ok = True
for work in ("Add", "Chain", "MSE", "SumDim", "MatMul"):
    g, r, t = cpu.get("Plain" + work), cpu.get("Released" + work), cpu.get("Torch" + work)
    if not g or not t:
        continue
    tk = min(t, key=t.get)
    dk = max(g, key=lambda k: int(k.rsplit("procs", 1)[-1]))  # the default: the most procs
    gk = min(g, key=g.get)
    gv, bv, tv = g[dk] / 1e3, g[gk] / 1e3, t[tk] / 1e3
    rv = min(r.values()) / 1e3 if r else float("nan")
    bound = 1.2 if work in ("Add", "Chain") else 1.5
    ok = ok and gv / tv <= bound
    print(f"{work:24} {gv:9.1f} {bv:9.1f} {rv:9.1f} {tv:9.1f} {gv / tv:6.2f} {bv / tv:6.2f}  goaccel best {gk}; PyTorch {tk.replace('threads', 'threads=')}")
    gc, tc = min(cpus["Plain" + work].values()), min(cpus["Torch" + work].values())
    print(f"SUMMARY\tplain {work.lower()} (1024x1024 float32, no Release)\t{gv:.1f} us\t{tv:.1f} us\t{gv / tv:.2f}x\t{gc / tc:.2f}x\t{bound:.2f}")
for side in ("goaccel", "torch"):
    if ("cpu", side) in rss:
        start, peak, _, _ = rss[("cpu", side)]
        print(f"peak resident memory of 10,000 adds of 4 MB temporaries, {side}: {peak:.0f} MiB ({peak - start:+.0f} MiB over its start)")
if best["emulated"] or ("emulated", "goaccel") in rss or emulated_failed:
    em = best["emulated"]
    print(f"\n{'emulated GPU, µs per iteration':30} {'plain':>9} {'released':>9} {'ratio':>6}")
    for work in ("Add", "Chain", "MSE", "SumDim"):
        g, r = em.get("Plain" + work), em.get("Released" + work)
        if not g or not r:
            ok = False
            print(f"{work:30} missing")
            continue
        gv, rv = min(g.values()) / 1e3, min(r.values()) / 1e3
        ok = ok and gv / rv <= 1.5
        print(f"{work:30} {gv:9.1f} {rv:9.1f} {gv / rv:6.2f}")
    if ("emulated", "goaccel") in rss:
        start, peak, dstart, dpeak = rss[("emulated", "goaccel")]
        print(f"10,000 adds of 4 MB temporaries on the emulated GPU: device memory in use peaked at {dpeak:.0f} MiB ({dpeak - dstart:+.0f} MiB over the start); resident memory {peak:.0f} MiB ({peak - start:+.0f})")
        # Bounded: within the device pacer's largest budget (a quarter of the device, at most 4 GiB) of the start.
        ok = ok and dpeak - dstart <= 4096
    else:
        ok = False
        print("no emulated GPU figures")
if not ok:
    print("a ratio is above its bound, or a figure is missing or over its bound")
sys.exit(0 if ok else 1)
PY
