#!/usr/bin/env bash
# The platforms goaccel builds for, checked from this machine (`make test-platforms`, which
# `make test` runs):
#   - linux/arm64, darwin/amd64, darwin/arm64: `go build` and `go vet` of every package, with
#     cgo off (no C toolchain for the other systems here; goaccel needs none: CUDA loads at run
#     time, and only NVML's device list wants cgo); linux/amd64's are make test's own first
#     steps (go vet ./..., CGO_ENABLED=0 go build ./...), or GOACCEL_NATIVE=1 adds them here;
#   - windows/amd64: `go build` of the packages a Go program uses (tensors, nn, optim, data,
#     datasets, tokenizers, accelerate, dist, notebook_launcher, transformers and the display
#     packages); the kernel itself does not build there (README, Platforms);
#   - `go install ./cmd/goaccel` for the four kernel platforms from a clean module cache
#     (GOMODCACHE and GOPATH in an empty folder), the dependencies fetched through GOPROXY as
#     a new user's machine fetches them. GOACCEL_OFFLINE=1 takes them from this machine's module
#     cache instead (GOPROXY=file://…), for machines without the network.
# It prints how long each part took.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
start=$SECONDS
kernel_platforms=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64)
libraries=(./tensors/... ./nn/... ./optim/... ./data/... ./datasets/... ./tokenizers/... ./accelerate/...
	./dist/... ./notebook_launcher/... ./transformers/... ./display/... ./plots/... ./progress/...
	./widgets/... ./cuda ./cuda/nccl)

cross=(linux/arm64 darwin/amd64 darwin/arm64)
[ "${GOACCEL_NATIVE:-0}" = 1 ] && cross=(linux/amd64 "${cross[@]}")
for p in "${cross[@]}"; do
	t=$SECONDS
	echo "== $p: go build ./... and go vet ./..."
	GOOS=${p%/*} GOARCH=${p#*/} CGO_ENABLED=0 $GO build ./...
	GOOS=${p%/*} GOARCH=${p#*/} CGO_ENABLED=0 $GO vet ./...
	echo "   $((SECONDS - t)) s"
done
t=$SECONDS
echo "== windows/amd64: go build of the library packages"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $GO build "${libraries[@]}"
echo "   $((SECONDS - t)) s"

# A clean module cache: what `go install` does on a new machine, from this checkout (go.mod's
# replace directives point into third_party/, so `go install …@latest` cannot be used).
t=$SECONDS
clean=$(mktemp -d "${TMPDIR:-/tmp}/goaccel-install.XXXXXX")
trap 'chmod -R u+w "$clean" 2>/dev/null; rm -rf "$clean"' EXIT
proxy=${GOPROXY:-$($GO env GOPROXY)}
if [ "${GOACCEL_OFFLINE:-0}" = 1 ]; then
	proxy="file://$($GO env GOMODCACHE)/cache/download"
fi
native="$($GO env GOHOSTOS)/$($GO env GOHOSTARCH)"
for p in "${kernel_platforms[@]}"; do
	echo "== $p: go install ./cmd/goaccel from an empty module cache"
	# Cross-compiled installs go to $GOPATH/bin/GOOS_GOARCH (GOBIN is refused for them).
	# This machine's own platform builds as its users build it (cgo on when there is a C compiler:
	# NVML's device list); the others with cgo off.
	cgo=0 bin="$clean/gopath/bin/${p%/*}_${p#*/}/goaccel"
	if [ "$p" = "$native" ]; then
		cgo=$($GO env CGO_ENABLED) bin="$clean/gopath/bin/goaccel"
	fi
	GOOS=${p%/*} GOARCH=${p#*/} CGO_ENABLED=$cgo GOPROXY=$proxy \
		GOMODCACHE="$clean/mod" GOPATH="$clean/gopath" GOBIN= $GO install ./cmd/goaccel
	[ -x "$bin" ] || { echo "go install left no $bin" >&2; exit 1; }
done
echo "   $((SECONDS - t)) s"
echo "platforms: $((SECONDS - start)) s"
