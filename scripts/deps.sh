#!/usr/bin/env bash
# Installs what goaccel's clients and tests need, when it is missing: Debian packages (apt), and the
# npm packages of the JupyterLab client test (tests/jupyterlab, pinned by its package-lock.json).
# The CUDA toolkit (nvidia-cuda-toolkit: nvcc and ptxas, which the tests use to check the embedded
# CUDA kernels; about 1.6 GB) is in Debian's non-free archive: contrib and non-free are added to
# apt's sources first (scripts/enable-nonfree.sh).
# Set GOACCEL_BENCH_DEPS=1 to also install python3-torch (reference numerics and benchmarks).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# iproute2: the multi-node test (tests/netns_test.go) builds two hosts from network namespaces.
for p in jupyter-client jupyter-nbconvert python3-nbclient python3-ipykernel jupyter-notebook jupyter-console chromium iproute2; do
	have "$p" || need+=("$p")
done
# Node (20 on the CI image; Debian's nodejs 18 also runs the client) and npm, unless a node is on PATH.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then need+=(nodejs npm); fi
if [ "${GOACCEL_BENCH_DEPS:-0}" = 1 ]; then have python3-torch || need+=(python3-torch); fi
cuda=0
have nvidia-cuda-toolkit || cuda=1
if [ ${#need[@]} -gt 0 ] || [ $cuda = 1 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	[ $cuda = 1 ] && $sudo scripts/enable-nonfree.sh
	$sudo apt-get update -qq
	if [ ${#need[@]} -gt 0 ]; then
		echo "installing: ${need[*]}"
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
	fi
	if [ $cuda = 1 ]; then
		echo "installing: nvidia-cuda-toolkit"
		start=$(date +%s)
		# Without recommends: the profilers and documentation are not needed for nvcc and ptxas.
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit
		echo "nvidia-cuda-toolkit installed in $(($(date +%s) - start)) s"
	fi
fi
# npm ci only when the installed packages were not installed from this lock file.
lock=tests/jupyterlab/package-lock.json
if ! cmp -s "$lock" tests/jupyterlab/node_modules/.goaccel-lock; then
	echo "installing the JupyterLab client test's npm packages (tests/jupyterlab)"
	(cd tests/jupyterlab && npm ci --no-audit --no-fund --loglevel=error)
	cp "$lock" tests/jupyterlab/node_modules/.goaccel-lock
fi
