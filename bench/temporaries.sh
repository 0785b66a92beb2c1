#!/usr/bin/env bash
# temporaries: plain code as a user writes it, with no Release (bench/temporaries: an add, a chain of
# two ops, a chain ending in a reduction, a row reduction, a product and its ReLU, on 1024×1024
# float32 tensors), beside the same lines in PyTorch (bench/temporaries_torch.py, at 1 and 2
# threads, in its steady state: bench/torch_malloc.sh), ROUNDS (2) alternated rounds, each side
# reporting the best of five windows; and the peak resident memory of 10,000 iterations of the
# add (4 MB temporaries) on each side. goaccel runs with GOMAXPROCS=1 and with the default (what
# a user gets). The ratios are goaccel's plain code at the default, and at its better setting,
# over PyTorch's better thread count (bound 1.5); goaccel's Released lines (the same work with
# every temporary released) show what the explicit path gives. DEVICE=cuda runs both sides on the
# first GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/torch_malloc.sh
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
	/usr/bin/python3 bench/temporaries_torch.py 2 "$device" | tee -a "$log" || echo "PyTorch baseline unavailable (install python3-torch)"
done
"$tmp/temporaries" -rss 10000 -device "$device" | tee -a "$log"
/usr/bin/python3 bench/temporaries_torch.py --rss 10000 | tee -a "$log"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
/usr/bin/python3 - "$log" <<'PY'
import re, sys
best = {}
rss = {}
for line in open(sys.argv[1]):
    m = re.match(r"^(\w+)-(\S+)\t(\d+) ns/op\t([\d.]+) cpu-us/op", line)
    if m:
        name, setting, ns = m.group(1), m.group(2), int(m.group(3))
        best.setdefault(name, {})
        best[name][setting] = min(best[name].get(setting, ns), ns)
        continue
    m = re.match(r"^(goaccel|torch) rss iterations=(\d+) rss_start_mib=([\d.]+) peak_rss_mib=([\d.]+)", line)
    if m:
        rss[m.group(1)] = (float(m.group(3)), float(m.group(4)))
print(f"\n{'plain code, µs per iteration':24} {'goaccel':>9} {'best':>9} {'released':>9} {'PyTorch':>9} {'ratio':>6} {'best':>6}  settings")
ok = True
for work in ("Add", "Chain", "MSE", "SumDim", "MatMul"):
    g, r, t = best.get("Plain" + work), best.get("Released" + work), best.get("Torch" + work)
    if not g or not t:
        continue
    tk = min(t, key=t.get)
    dk = max(g, key=lambda k: int(k.rsplit("procs", 1)[-1]))  # the default: the most procs
    gk = min(g, key=g.get)
    gv, bv, tv = g[dk] / 1e3, g[gk] / 1e3, t[tk] / 1e3
    rv = min(r.values()) / 1e3 if r else float("nan")
    ok = ok and gv / tv <= 1.5
    print(f"{work:24} {gv:9.1f} {bv:9.1f} {rv:9.1f} {tv:9.1f} {gv / tv:6.2f} {bv / tv:6.2f}  goaccel best {gk}; PyTorch {tk.replace('threads', 'threads=')}")
for side, (start, peak) in rss.items():
    print(f"peak resident memory of 10,000 adds of 4 MB temporaries, {side}: {peak:.0f} MiB ({peak - start:+.0f} MiB over its start)")
if not ok:
    print("a ratio is above the bound of 1.5")
sys.exit(0 if ok else 1)
PY
