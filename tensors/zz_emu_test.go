package tensors

import (
	"testing"
	"time"
)

func TestZZEmuSpeed(t *testing.T) {
	d := CUDA(0)
	x := Randn(128, 512).To(d)
	start := time.Now()
	for i := 0; i < 100; i++ {
		x.ReLU().Release()
	}
	x.Sum().Item()
	t.Logf("relu 64K: %.3f ms", time.Since(start).Seconds()*10)
	start = time.Now()
	for i := 0; i < 100; i++ {
		x.Softmax(1).Release()
	}
	x.Sum().Item()
	t.Logf("softmax 128x512: %.3f ms", time.Since(start).Seconds()*10)
	y := Randn(128, 128).To(d)
	start = time.Now()
	for i := 0; i < 100; i++ {
		y.SumDims(false, 0).Release()
	}
	x.Sum().Item()
	t.Logf("sum over 128 rows of 128: %.3f ms", time.Since(start).Seconds()*10)
}
