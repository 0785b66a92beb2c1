package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/goaccel/goaccel/cuda"
	"github.com/goaccel/goaccel/tensors"
)

func main() {
	steps := flag.Int("steps", 200, "timed MLP steps")
	check := flag.Bool("check", false, "only check that goaccel can use the GPU (and compile its kernels for it)")
	mnistRun := flag.Bool("mnist", false, "train on MNIST through the Accelerator (float32 and bf16) and check the test accuracy")
	flag.Parse()
	if cuda.DeviceCount() == 0 {
		log.Fatalf("no usable GPU: %v", cuda.Err())
	}
	dev := tensors.CUDA(0)
	switch {
	case *check:
		start := time.Now()
		got := tensors.New([]float32{1, 2, 3}, 3).To(dev).Exp().Sum().Item()
		fmt.Printf("%d GPU(s); cuda:0 opened and ran a kernel in %.1f s (exp sum %.4f, want 30.1929)\n", cuda.DeviceCount(), time.Since(start).Seconds(), got)
		if got < 30.19 || got > 30.20 {
			os.Exit(1)
		}
	case *mnistRun:
		failed := false
		for _, mp := range []string{"no", "bf16"} {
			acc, took, err := mnist(mp, 3)
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("mnist_%s %.2f %% (3 epochs in %.1f s)\n", precisionName(mp), 100*acc, took.Seconds())
			failed = failed || acc < minMNISTAccuracy
		}
		if failed {
			fmt.Printf("gpubench: MNIST test accuracy below %.0f %%\n", 100*minMNISTAccuracy)
			os.Exit(1)
		}
	default:
		for _, n := range []int{4096, 8192} {
			fmt.Printf("gemm_fp32_%d %.1f TFLOP/s\n", n, gemm(dev, n, false))
			fmt.Printf("gemm_bf16_%d %.1f TFLOP/s\n", n, gemm(dev, n, true))
		}
		fmt.Printf("mlp_step %.3f ms\n", mlpStep(dev, *steps))
	}
}

func precisionName(mp string) string {
	if mp == "no" {
		return "fp32"
	}
	return mp
}

func sync() {
	if err := cuda.Synchronize(0); err != nil {
		log.Fatal(err)
	}
}
