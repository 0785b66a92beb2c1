#!/usr/bin/env bash
# Installs what is missing, and only that, for one of two jobs:
#   deps.sh run    what `make run` runs: Jupyter's nbconvert and nbclient (Debian's packages) to
#                  execute the example notebooks headless with the goaccel kernel;
#   deps.sh test   what `make test` and CI need besides: the classic Notebook server and the
#                  console (client tests), ipykernel (the reference kernel), Chromium (browser
#                  tests), iproute2 (two hosts in network namespaces), slurm-wlm, munge and
#                  openmpi-bin (a Slurm cluster and mpirun across those two hosts), the CUDA toolkit
#                  (nvidia-cuda-toolkit: nvcc and ptxas check the embedded kernels; about 1.6 GB,
#                  in Debian's non-free archive, which scripts/enable-nonfree.sh adds to apt's
#                  sources), Node and the JupyterLab client test's npm packages (tests/jupyterlab,
#                  pinned by its package-lock.json).
# Set GOACCEL_BENCH_DEPS=1 to also install python3-torch (reference numerics and benchmarks).
# It prints what it installs, and nothing else when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."
job=${1:-test}
case "$job" in
run | test) ;;
*)
	echo "usage: scripts/deps.sh run|test" >&2
	exit 2
	;;
esac

# run_pkgs: executing notebooks headless (jupyter nbconvert --execute drives the kernel through
# nbclient and jupyter_client, which jupyter-nbconvert depends on).
run_pkgs=(jupyter-nbconvert python3-nbclient jupyter-client)
test_pkgs=(jupyter-notebook jupyter-console python3-ipykernel chromium iproute2 slurm-wlm munge openmpi-bin)

have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
need_run=() need_test=()
for p in "${run_pkgs[@]}"; do
	have "$p" || need_run+=("$p")
done
cuda=0
if [ "$job" = test ]; then
	for p in "${test_pkgs[@]}"; do
		have "$p" || need_test+=("$p")
	done
	# Node (20 on the CI image; Debian's nodejs 18 also runs the client) and npm, unless a node is on PATH.
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then need_test+=(nodejs npm); fi
	have nvidia-cuda-toolkit || cuda=1
fi
if [ "${GOACCEL_BENCH_DEPS:-0}" = 1 ]; then have python3-torch || need_test+=(python3-torch); fi

if [ ${#need_run[@]} -gt 0 ] || [ ${#need_test[@]} -gt 0 ] || [ $cuda = 1 ]; then
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	[ $cuda = 1 ] && $sudo scripts/enable-nonfree.sh
	$sudo apt-get update -qq
	if [ ${#need_run[@]} -gt 0 ]; then
		echo "installing (apt, for make run): ${need_run[*]}"
		# Without recommends (pandoc, TeX, …): executing a notebook and writing its HTML needs none.
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_run[@]}"
	fi
	if [ ${#need_test[@]} -gt 0 ]; then
		echo "installing (apt, for make test): ${need_test[*]}"
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_test[@]}"
	fi
	if [ $cuda = 1 ]; then
		echo "installing (apt, for make test): nvidia-cuda-toolkit"
		start=$(date +%s)
		DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit
		echo "nvidia-cuda-toolkit installed in $(($(date +%s) - start)) s"
	fi
fi

if [ "$job" = test ]; then
	# npm ci only when the installed packages were not installed from this lock file.
	lock=tests/jupyterlab/package-lock.json
	if ! cmp -s "$lock" tests/jupyterlab/node_modules/.goaccel-lock; then
		echo "installing (npm, for make test): the JupyterLab client test's packages (tests/jupyterlab)"
		(cd tests/jupyterlab && npm ci --no-audit --no-fund --loglevel=error)
		cp "$lock" tests/jupyterlab/node_modules/.goaccel-lock
	fi
fi
