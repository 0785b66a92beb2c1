#!/usr/bin/env bash
# Prints the patch third_party/go-nvml carries over NVIDIA/go-nvml v0.13.4-1
# (the diff third_party/go-nvml.patch holds): every file of the copy against
# the release. The copy leaves out what goaccel never builds (upstream's
# tests, pkg/nvml/mock, the generator, examples), which is not part of the
# patch. `scripts/go-nvml-patch.sh > third_party/go-nvml.patch` refreshes it
# after a change to the copy.
set -euo pipefail
cd "$(dirname "$0")/.."
up=$(GOFLAGS=-mod=mod go mod download -json github.com/NVIDIA/go-nvml@v0.13.4-1 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$up" ] || { echo "go-nvml-patch: could not download NVIDIA/go-nvml v0.13.4-1" >&2; exit 1; }
cd third_party/go-nvml
for f in $(find . -type f | sort); do
	f=${f#./}
	# diff exits 1 when the files differ, which patched ones do.
	diff -uN --label "a/$f" --label "b/$f" "$up/$f" "$f" || [ $? -eq 1 ]
done
