#!/usr/bin/env bash
# Side-by-side tokenizer throughput: goaccel's tokenizers (Go) against Hugging Face
# tokenizers (Rust, through Python) on the same 2,485 test sentences and the same
# tokenizer.json files (tokenizers/testdata), in the same run, single sentences
# (Encode / encode) and whole batches (EncodeBatch / encode_batch). Rounds alternate
# the two sides so both see the same machine load; medians are printed.
# PYTHON names a Python with tokenizers installed (default python3);
# TOKENIZERS_BENCH_ROUNDS (default 3) sets the rounds.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/tok.test" ./tokenizers/ || exit 1
exec "$PY" - "$tmp/tok.test" "${TOKENIZERS_BENCH_ROUNDS:-3}" <<'PYEOF'
import json, re, statistics, subprocess, sys, time
binary, rounds = sys.argv[1], int(sys.argv[2])
kinds = ["minilm", "gpt2", "llama3", "llama2", "t5"]
try:
    from tokenizers import Tokenizer, __version__ as tv
except ImportError as e:
    Tokenizer = None
    print(f"Python tokenizers unavailable ({e}): set PYTHON to a Python that has it; Go numbers only")
sents = [s["text"] for s in json.load(open("tokenizers/testdata/sentences.json"))]
pat = re.compile(r"^Benchmark(Encode|EncodeBatch)/(\w+)-\d+\s+\d+\s+\S+ ns/op\s+\S+ MB/s\s+([\d.]+) sentences/s", re.M)

def go():
    out = subprocess.run([binary, "-test.run", "^$", "-test.bench", "^BenchmarkEncode", "-test.benchtime", "3x"],
                         capture_output=True, text=True, check=True, cwd="tokenizers").stdout
    return {(m.group(1), m.group(2)): float(m.group(3)) for m in pat.finditer(out)}

def py(kind):
    t = Tokenizer.from_file(f"tokenizers/testdata/{kind}/tokenizer.json")
    for s in sents:  # warm the model's word cache, as the Go benchmark's repeated passes do
        t.encode(s)
    t0 = time.perf_counter()
    for s in sents:
        t.encode(s)
    single = len(sents) / (time.perf_counter() - t0)
    t.encode_batch(sents)
    t0 = time.perf_counter()
    t.encode_batch(sents)
    return single, len(sents) / (time.perf_counter() - t0)

res = {}
load = lambda: open("/proc/loadavg").read().split()[0]
print(f"load average before: {load()}; {len(sents)} sentences; Python tokenizers {tv if Tokenizer else '-'}", flush=True)
for r in range(rounds):
    for (mode, kind), v in go().items():
        res.setdefault(("go", mode, kind), []).append(v)
    if Tokenizer:
        for kind in kinds:
            s, b = py(kind)
            res.setdefault(("rust", "Encode", kind), []).append(s)
            res.setdefault(("rust", "EncodeBatch", kind), []).append(b)
    print(f"round {r + 1}/{rounds} done, load average {load()}", flush=True)
med = lambda k: statistics.median(res[k]) if k in res else float("nan")
print("\nsentences per second (median); ratio > 1 means Go is faster")
print(f"{'tokenizer':10}{'Go single':>12}{'Rust single':>13}{'Go/Rust':>9}{'Go batch':>12}{'Rust batch':>13}{'Go/Rust':>9}")
for kind in kinds:
    gs, rs, gb, rb = med(("go", "Encode", kind)), med(("rust", "Encode", kind)), med(("go", "EncodeBatch", kind)), med(("rust", "EncodeBatch", kind))
    print(f"{kind:10}{gs:12.0f}{rs:13.0f}{gs / rs:9.2f}{gb:12.0f}{rb:13.0f}{gb / rb:9.2f}")
print("Rust single is tokenizer.encode(s) called from Python for each sentence (its Python call costs about a microsecond);"
      " batch is encode_batch (Rust threads) against EncodeBatch (goroutines)")
PYEOF
