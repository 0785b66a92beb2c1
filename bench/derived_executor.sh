#!/usr/bin/env bash
# Derived executor benchmark (bench/derived_executor.py); `make bench` calls it.
# Builds the binary, installs the kernelspec into a temporary JUPYTER_DATA_DIR and
# uses an empty GOACCEL_CACHE, so the first import is cold. It fetches
# github.com/google/uuid through GOPROXY.
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
JUPYTER_DATA_DIR="$tmp/jupyter" GOACCEL_CACHE="$tmp/cache" /usr/bin/python3 bench/derived_executor.py "$@"
