#!/usr/bin/env bash
# Installs the Debian packages goaccel's clients and tests need, when they are missing.
# Set GOACCEL_BENCH_DEPS=1 to also install python3-torch (reference numerics and benchmarks).
set -euo pipefail
need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in jupyter-client jupyter-nbconvert python3-nbclient python3-ipykernel jupyter-notebook jupyter-console chromium; do
	have "$p" || need+=("$p")
done
if [ "${GOACCEL_BENCH_DEPS:-0}" = 1 ]; then have python3-torch || need+=(python3-torch); fi
[ ${#need[@]} -eq 0 ] && exit 0
echo "installing: ${need[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
