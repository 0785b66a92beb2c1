# Sourced by the benchmark scripts that run a Python baseline: PY is the Python the baselines run
# on, PyTorch 2.x from PyPI (MKL, oneDNN, AVX-512) with transformers and Accelerate 1.x, in the
# virtual environment .venv/hf that `scripts/deps.sh bench` (run by `make bench`) makes, or
# PYTHON when set. HAVE_TORCH is 1 when PY imports torch; TORCH_VERSION names it for the tables.
PY=${PYTHON:-.venv/hf/bin/python}
HAVE_TORCH=1
TORCH_VERSION=$("$PY" -c 'import torch; print(torch.__version__.split("+")[0])' 2>/dev/null) || {
	HAVE_TORCH=0
	TORCH_VERSION=none
	echo "PyTorch baseline unavailable: no torch for $PY (run scripts/deps.sh bench, or set PYTHON)" >&2
}
export PY HAVE_TORCH TORCH_VERSION
