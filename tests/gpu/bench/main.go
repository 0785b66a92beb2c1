package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/goaccel/goaccel/cuda"
	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/optim"
	"github.com/goaccel/goaccel/tensors"
)

func main() {
	steps := flag.Int("steps", 200, "timed MLP steps")
	check := flag.Bool("check", false, "only check that goaccel can use the GPU (and compile its kernels for it)")
	flag.Parse()
	if cuda.DeviceCount() == 0 {
		log.Fatalf("no usable GPU: %v", cuda.Err())
	}
	dev := tensors.CUDA(0)
	if *check {
		start := time.Now()
		got := tensors.New([]float32{1, 2, 3}, 3).To(dev).Exp().Sum().Item()
		fmt.Printf("%d GPU(s); cuda:0 opened and ran a kernel in %.1f s (exp sum %.4f, want 30.1929)\n", cuda.DeviceCount(), time.Since(start).Seconds(), got)
		if got < 30.19 || got > 30.20 {
			os.Exit(1)
		}
		return
	}
	for _, n := range []int{4096, 8192} {
		fmt.Printf("gemm_fp32_%d %.1f TFLOP/s\n", n, gemm(dev, n, false))
		fmt.Printf("gemm_bf16_%d %.1f TFLOP/s\n", n, gemm(dev, n, true))
	}
	fmt.Printf("mlp_step %.3f ms\n", mlpStep(dev, *steps))
}

func sync() {
	if err := cuda.Synchronize(0); err != nil {
		log.Fatal(err)
	}
}

// gemm returns the TFLOP/s of n×n×n products, timed over enough repetitions for about a second.
func gemm(dev tensors.Device, n int, bf16 bool) float64 {
	var a, b *tensors.Tensor
	tensors.NoGrad(func() {
		a, b = tensors.Randn(n, n).To(dev), tensors.Randn(n, n).To(dev)
		if bf16 {
			a, b = a.AsType(tensors.BFloat16), b.AsType(tensors.BFloat16)
		}
	})
	mul := func() {
		tensors.NoGrad(func() {
			if bf16 {
				tensors.Autocast(tensors.BFloat16, func() { a.MatMul(b) })
			} else {
				a.MatMul(b)
			}
		})
	}
	for i := 0; i < 3; i++ {
		mul()
	}
	sync()
	flops := 2 * float64(n) * float64(n) * float64(n)
	reps := 5
	for {
		start := time.Now()
		for i := 0; i < reps; i++ {
			mul()
		}
		sync()
		el := time.Since(start).Seconds()
		if el > 0.5 || reps >= 1000 {
			return flops * float64(reps) / el / 1e12
		}
		reps *= 4
	}
}

// mlpStep returns the milliseconds per training step (forward, backward, AdamW) of the MLP.
func mlpStep(dev tensors.Device, steps int) float64 {
	tensors.ManualSeed(0)
	m := nn.NewSequential(nn.NewLinear(784, 512), nn.ReLU{}, nn.NewLinear(512, 512), nn.ReLU{}, nn.NewLinear(512, 10))
	nn.MoveTo(m, dev)
	opt := optim.NewAdamW(m.Parameters(), optim.AdamConfig{LR: 1e-3, WeightDecay: 0.01})
	x := tensors.Randn(128, 784).To(dev)
	y := tensors.RandInt(0, 10, 128).To(dev)
	step := func() {
		loss := tensors.CrossEntropy(m.Forward(x), y)
		loss.Backward()
		opt.Step()
		opt.ZeroGrad()
	}
	for i := 0; i < 20; i++ {
		step()
	}
	sync()
	start := time.Now()
	for i := 0; i < steps; i++ {
		step()
	}
	sync()
	ms := float64(time.Since(start).Microseconds()) / 1000 / float64(steps)
	fmt.Fprintf(os.Stderr, "gpubench: %d MLP steps in %.1f ms\n", steps, ms*float64(steps))
	return ms
}
