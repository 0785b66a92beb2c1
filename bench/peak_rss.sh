#!/usr/bin/env bash
# peak_rss: peak resident memory (VmHWM) of training the MNIST notebook's MLP (one epoch, 469
# steps) and the char_gpt notebook's GPT (STEPS_GPT, 300 steps), in goaccel (bench/peak_rss) and
# in PyTorch 2.x (bench/peak_rss_torch.py: the same model, data, batch and steps, AdamW
# foreach=True, 1 thread), each in its own process. The ratio is goaccel / PyTorch (below 1:
# goaccel needs less). Both include their runtime (Go's, or Python with torch imported).
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/python.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/peak_rss" ./bench/peak_rss || exit 1
mnist=$("$tmp/peak_rss" -print-mnist-dir) || exit 1
steps_gpt=${STEPS_GPT:-300}
{
	"$tmp/peak_rss" -model mnist -steps 469
	"$tmp/peak_rss" -model gpt -steps "$steps_gpt"
	if [ "$HAVE_TORCH" = 1 ]; then
		"$PY" bench/peak_rss_torch.py mnist 469 "$mnist"
		"$PY" bench/peak_rss_torch.py gpt "$steps_gpt"
	fi
} | tee "$tmp/runs"
awk '
	{ for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } peak[$1, f["model"]] = f["peak_rss_mib"] }
	END {
		printf "%-34s %12s %12s %8s\n", "peak RSS (MiB)", "goaccel", "PyTorch", "ratio"
		n = split("mnist gpt", ms, " ")
		for (i = 1; i <= n; i++) {
			m = ms[i]
			label = m == "mnist" ? "MNIST MLP, one epoch" : "char GPT training"
			if ((("torch", m) in peak) && peak["torch", m] > 0)
				printf "%-34s %12.1f %12.1f %7.2fx\n", label, peak["goaccel", m], peak["torch", m], peak["goaccel", m] / peak["torch", m]
			else
				printf "%-34s %12.1f %12s\n", label, peak["goaccel", m], "-"
		}
	}' "$tmp/runs"
