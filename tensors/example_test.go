package tensors_test

import (
	"fmt"
	"math"

	"github.com/goaccel/goaccel/tensors"
)

func ExampleNew() {
	x := tensors.New([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	fmt.Println(x.Shape(), x.DType())
	fmt.Println(x)
	// Output:
	// [2 3] float32
	// tensor([[1., 2., 3.],
	//         [4., 5., 6.]])
}

func ExampleTensor_Add() {
	x := tensors.New([]float32{1, 2, 3, 4}, 2, 2)
	bias := tensors.New([]float32{10, 20}, 2)
	fmt.Println(x.Add(bias)) // bias broadcasts over rows
	fmt.Println(x.MatMul(x.T()))
	fmt.Println(x.Softmax(1))
	// Output:
	// tensor([[11., 22.],
	//         [13., 24.]])
	// tensor([[ 5., 11.],
	//         [11., 25.]])
	// tensor([[0.2689, 0.7311],
	//         [0.2689, 0.7311]])
}

func ExampleTensor_Backward() {
	w := tensors.New([]float32{1, -2, 3}, 3).SetRequiresGrad(true)
	loss := w.Mul(w).Sum() // Σ w², gradient 2w
	loss.Backward()
	fmt.Println(loss.Item())
	fmt.Println(w.Grad())
	// Output:
	// 14
	// tensor([ 2., -4.,  6.])
}

func ExampleNoGrad() {
	w := tensors.Ones(2).SetRequiresGrad(true)
	tensors.NoGrad(func() {
		y := w.MulScalar(3)
		fmt.Println(y.RequiresGrad())
	})
	fmt.Println(w.MulScalar(3).RequiresGrad())
	// Output:
	// false
	// true
}

func ExampleCrossEntropy() {
	logits := tensors.New([]float32{2, 0, 0, 0, 2, 0}, 2, 3).SetRequiresGrad(true)
	target := tensors.FromInt64([]int64{0, 1}, 2)
	loss := tensors.CrossEntropy(logits, target)
	loss.Backward()
	fmt.Printf("%.4f\n", loss.Item())
	fmt.Println(logits.Grad())
	// Output:
	// 0.2395
	// tensor([[-0.1065,  0.0533,  0.0533],
	//         [ 0.0533, -0.1065,  0.0533]])
}

func ExampleLinear() {
	x := tensors.New([]float32{1, 2}, 1, 2)
	w := tensors.New([]float32{1, 0, 0, 1, 1, 1}, 3, 2) // [out=3, in=2]
	b := tensors.New([]float32{0, 0, 10}, 3)
	fmt.Println(tensors.Linear(x, w, b))
	// Output:
	// tensor([[ 1.,  2., 13.]])
}

func ExampleTensor_OnGradReady() {
	w1 := tensors.Ones(2, 2).SetRequiresGrad(true)
	w2 := tensors.Ones(1, 2).SetRequiresGrad(true)
	w1.OnGradReady(func(*tensors.Tensor) { fmt.Println("w1 ready") })
	w2.OnGradReady(func(*tensors.Tensor) { fmt.Println("w2 ready") })
	x := tensors.Ones(1, 2)
	tensors.Linear(tensors.Linear(x, w1, nil), w2, nil).Sum().Backward()
	// Output:
	// w2 ready
	// w1 ready
}

func ExampleAutocast() {
	a := tensors.New([]float32{1.001, 2}, 1, 2)
	b := tensors.New([]float32{1, 1}, 2, 1)
	tensors.Autocast(tensors.BFloat16, func() {
		c := a.MatMul(b) // 1.001 rounds to 1 in bfloat16
		fmt.Println(c.Item(), c.DType())
	})
	// Output:
	// 3 float32
}

// ExampleTensor_To moves a tensor to the machine's first GPU when it has one: the same code runs
// on the CPU otherwise.
func ExampleTensor_To() {
	dev := tensors.CPU
	if tensors.DeviceCount("cuda") > 0 {
		dev = tensors.CUDA(0)
	}
	x := tensors.New([]float32{1, 2, 3}, 3).To(dev)
	y := x.Mul(x).Sum() // runs on dev; Item reads the result back
	fmt.Println(y.Item())
	// Output:
	// 14
}

// ExampleSumSquares clips gradients to a global norm of 1, as nn.ClipGradNorm does, on the
// gradients' device.
func ExampleSumSquares() {
	g1, g2 := tensors.New([]float32{3, 0}, 2), tensors.New([]float32{0, 4}, 2)
	grads := []*tensors.Tensor{g1, g2}
	norm := math.Sqrt(tensors.SumSquares(grads))
	tensors.ScaleInPlace(grads, 1/norm)
	fmt.Println(norm, g1.Float32s(), g2.Float32s())
	// Output:
	// 5 [0.6 0] [0 0.8]
}

// At reads one element, as PyTorch's x[i, j].item(); negative indices count from the end.
func ExampleTensor_At() {
	x := tensors.New([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	fmt.Println(x.At(0, 1), x.At(1, -1), x.T().At(2, 0))
	// Output: 2 6 3
}

// Temporaries need no Release: a loop that drops its results keeps its memory bounded, each
// dropped buffer coming back to the pool after the next collection the device's pacer runs. A
// chain of elementwise ops on the CPU is computed when it is read, in one pass: here one 4 MB
// result an iteration, not two.
func Example_temporaries() {
	x, y := tensors.Ones(1024, 1024), tensors.Ones(1024, 1024)
	for range 1000 {
		z := x.Add(y).MulScalar(0.5)
		_ = z.At(0, 0) // read: computed now, then dropped
	}
	s := x.Add(y)
	fmt.Println(s.Sum().Item(), s.At(-1, -1)) // a sum of a deferred result writes nothing
	s.Release()                               // the explicit path: the memory is reused at once
	// Output: 2.097152e+06 2
}

func ExampleBatchNorm() {
	x := tensors.New([]float32{1, 2, 3, 4, 10, 20, 30, 40}, 4, 2) // 4 samples, 2 channels
	// The same as PyTorch's F.batch_norm(x, mean, variance, training=True, momentum=0.1).
	mean, variance := tensors.Zeros(2), tensors.Ones(2)
	y := tensors.BatchNorm(x, mean, variance, nil, nil, true, 0.1, 1e-5)
	fmt.Printf("%.3f\n", y.Float32s()[:2])
	fmt.Printf("running mean %.2f, running variance %.2f\n", mean.Float32s(), variance.Float32s())
	// Output:
	// [-0.872 -0.950]
	// running mean [1.10 1.65], running variance [18.43 31.93]
}

func ExampleAvgPool2d() {
	x := tensors.Arange(0, 16, 1).Reshape(1, 1, 4, 4)
	fmt.Println(tensors.AvgPool2d(x, 2, tensors.AvgPool2dOptions{}).Float32s())
	fmt.Println(tensors.AdaptiveAvgPool2d(x, 1, 1).Float32s())
	// Output:
	// [2.5 4.5 10.5 12.5]
	// [7.5]
}
