#!/usr/bin/env bash
# Compiles src/kernels.cu to PTX for compute_80 (JIT-compiled by newer drivers for their GPU),
# without fused multiply-adds (so the optimizer updates round as on the CPU), and writes it with
# a first line recording the hash of the sources: `make ptx` runs it; the package's tests check
# that the committed PTX matches the sources.
# Usage: genptx.sh [output]   (default kernels.ptx beside this script)
set -euo pipefail
cd "$(dirname "$0")"
out="${1:-kernels.ptx}"
NVCC="${NVCC:-nvcc}"
hash=$(for f in $(cd src && ls | LC_ALL=C sort); do printf '%s\n' "$f"; cat "src/$f"; done | sha256sum | cut -d' ' -f1)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$NVCC" -ptx -arch=compute_80 -O3 -fmad=false -o "$tmp" src/kernels.cu
{ echo "// goaccel kernels, sources sha256 $hash"; cat "$tmp"; } >"$out"
