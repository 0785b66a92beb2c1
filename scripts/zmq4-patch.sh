#!/usr/bin/env bash
# Prints the patch third_party/zmq4 carries over go-zeromq/zmq4 v0.17.0 (the
# diff third_party/zmq4.patch holds). `scripts/zmq4-patch.sh > third_party/zmq4.patch`
# refreshes it after a change to the vendored copy.
set -euo pipefail
cd "$(dirname "$0")/.."
up=$(GOFLAGS=-mod=mod go mod download -json github.com/go-zeromq/zmq4@v0.17.0 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$up" ] || { echo "zmq4-patch: could not download go-zeromq/zmq4 v0.17.0" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$up" "$tmp/a"
ln -s "$PWD/third_party/zmq4" "$tmp/b"
# diff exits 1 when the trees differ, which they do.
(cd "$tmp" && diff -ruN a b || [ $? -eq 1 ]) | sed -E 's/^(---|\+\+\+) ([^\t]*)\t.*/\1 \2/'
