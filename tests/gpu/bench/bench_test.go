package main

import (
	"testing"

	"github.com/goaccel/goaccel/cuda"
	"github.com/goaccel/goaccel/tensors"
)

func needGPU(t *testing.T) {
	if cuda.DeviceCount() == 0 {
		t.Skipf("no GPU here (%v); make test-cuda-emulated runs this test on an emulated one", cuda.Err())
	}
}

// TestGemmReleasesEveryProductItTimes runs the GEMM measurement (small, thousands of products):
// the GPU memory in use afterwards is what it was before, products and operands included.
func TestGemmReleasesEveryProductItTimes(t *testing.T) {
	needGPU(t)
	before, err := cuda.MemoryAllocated(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, bf16 := range []bool{false, true} {
		if tf := gemm(tensors.CUDA(0), 64, bf16); !(tf > 0) {
			t.Fatalf("gemm (bf16 %v) measured %v TFLOP/s", bf16, tf)
		}
		if after, _ := cuda.MemoryAllocated(0); after != before {
			t.Fatalf("after the GEMM measurement (bf16 %v) %d bytes of GPU memory are in use, %d before: the products were not released", bf16, after, before)
		}
	}
}

// TestTheMNISTCheckRunsOnTheGPU runs -mnist's path without training (epochs 0): the data, the
// Accelerator on cuda:0 and the evaluation, which must find an untrained model's chance
// accuracy.
func TestTheMNISTCheckRunsOnTheGPU(t *testing.T) {
	needGPU(t)
	acc, _, err := mnist("no", 0)
	if err != nil {
		t.Fatal(err)
	}
	if acc <= 0 || acc > 0.3 {
		t.Fatalf("an untrained model's MNIST test accuracy %.3f, want chance (about 0.1)", acc)
	}
}
