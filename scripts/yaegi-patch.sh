#!/usr/bin/env bash
# Prints the patch third_party/yaegi carries over traefik/yaegi v0.16.1 (the
# diff third_party/yaegi/goaccel.patch holds): every Go file of the copy
# against the release, a file the copy adds (a test) as a new file. The copy
# leaves out what goaccel never builds (upstream's tests, _test/, the yaegi
# command), which is not part of the patch. `scripts/yaegi-patch.sh >
# third_party/yaegi/goaccel.patch` refreshes it after a change to the copy.
set -euo pipefail
cd "$(dirname "$0")/.."
up=$(GOFLAGS=-mod=mod go mod download -json github.com/traefik/yaegi@v0.16.1 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$up" ] || { echo "yaegi-patch: could not download traefik/yaegi v0.16.1" >&2; exit 1; }
cd third_party/yaegi
for f in $(find . -name '*.go' -o -name '*.go.txt' | sort); do
	f=${f#./}
	# diff exits 1 when the files differ, which patched ones do.
	diff -uN --label "a/$f" --label "b/$f" "$up/$f" "$f" || [ $? -eq 1 ]
done
