package main

import (
	"time"

	"github.com/goaccel/goaccel/tensors"
)

// gemm returns the TFLOP/s of n×n×n products, timed over enough repetitions for about a second.
// Every product is released as soon as it is queued, as a training step's temporaries are: left
// to the garbage collector, thousands of 8192² results would fill the GPU, and the timing would
// measure the allocator's trimming.
func gemm(dev tensors.Device, n int, bf16 bool) float64 {
	var a, b *tensors.Tensor
	tensors.NoGrad(func() {
		a, b = tensors.Randn(n, n).To(dev), tensors.Randn(n, n).To(dev)
		if bf16 {
			a32, b32 := a, b
			a, b = a.AsType(tensors.BFloat16), b.AsType(tensors.BFloat16)
			a32.Release() // the float32 originals, dropped here, would hold GPU memory until a collection
			b32.Release()
		}
	})
	defer a.Release()
	defer b.Release()
	mul := func() {
		tensors.NoGrad(func() {
			if bf16 {
				tensors.Autocast(tensors.BFloat16, func() { a.MatMul(b).Release() })
			} else {
				a.MatMul(b).Release()
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
