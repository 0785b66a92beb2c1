#!/usr/bin/env bash
# Kernel latency benchmark (goaccel vs ipykernel, same run); `make bench` calls it.
# Builds the binary, installs the kernelspec into a temporary JUPYTER_DATA_DIR
# (the user's own installation is left alone) and runs bench/kernel_bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/goaccel" ./cmd/goaccel
JUPYTER_DATA_DIR="$tmp/jupyter" "$tmp/goaccel" install >/dev/null
JUPYTER_DATA_DIR="$tmp/jupyter" /usr/bin/python3 bench/kernel_bench.py "$@"
