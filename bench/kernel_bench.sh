#!/usr/bin/env bash
# Kernel latency benchmark (goaccel vs ipykernel, same run); `make bench` calls it.
# Builds the binary, installs the kernelspec into a temporary JUPYTER_DATA_DIR
# (the user's own installation is left alone) and runs bench/kernel_bench.py.
# GOACCEL_BIN=path uses an already built binary instead.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${GOACCEL_BIN:-}
if [ -z "$bin" ]; then
	bin="$tmp/goaccel"
	go build -o "$bin" ./cmd/goaccel
fi
JUPYTER_DATA_DIR="$tmp/jupyter" "$bin" install >/dev/null
# ipykernel 6.17 prints debugger warnings on every start without this.
export PYDEVD_DISABLE_FILE_VALIDATION=1
JUPYTER_DATA_DIR="$tmp/jupyter" /usr/bin/python3 bench/kernel_bench.py "$@"
