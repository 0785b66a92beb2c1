package tensors_test

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Causal attention over 3 positions: each query sees itself and the keys before it, so the
// first output row is the first value row, and the last averages all three when the scores tie.
func ExampleScaledDotProductAttention() {
	q := tensors.Zeros(1, 1, 3, 2) // [batch, heads, positions, features]: equal scores
	v := tensors.New([]float32{3, 0, 0, 3, 0, 0}, 1, 1, 3, 2)
	out := tensors.ScaledDotProductAttention(q, q, v, tensors.AttentionOptions{Causal: true})
	fmt.Println(out.Reshape(3, 2))
	// Output:
	// tensor([[3.0000, 0.0000],
	//         [1.5000, 1.5000],
	//         [1.0000, 1.0000]])
}

// Release hands a temporary's memory back at once, so the next tensor of its size reuses it
// instead of waiting for the garbage collector.
func ExampleTensor_Release() {
	x := tensors.Ones(1024, 1024)
	for range 3 {
		y := x.MulScalar(2)
		fmt.Println(y.Sum().Item())
		y.Release() // y must not be used after this
	}
	// Output:
	// 2.097152e+06
	// 2.097152e+06
	// 2.097152e+06
}

// Sampling the next token as nanoGPT does: keep the k likeliest logits, softmax, draw.
func ExampleTensor_TopK() {
	logits := tensors.New([]float32{0.1, 2, -1, 3}, 1, 4)
	values, indices := logits.TopK(2, 1, true)
	fmt.Println(values, indices)
	kept := logits.MaskedFill(logits.Lt(values.Slice(1, 1, 2)), -1e9)
	next := tensors.Multinomial(kept.Softmax(1), 1, true, tensors.NewGenerator(0))
	fmt.Println(next.Int64s()[0] == 1 || next.Int64s()[0] == 3)
	// Output:
	// tensor([[3., 2.]]) tensor([[3, 1]])
	// true
}

// Tril keeps the lower triangle: the causal mask of a sequence of 3.
func ExampleTensor_Tril() {
	fmt.Println(tensors.Ones(3, 3).Tril(0))
	// Output:
	// tensor([[1., 0., 0.],
	//         [1., 1., 0.],
	//         [1., 1., 1.]])
}

// Chunk splits a fused q|k|v projection into its three parts, as views of the same memory.
func ExampleTensor_Chunk() {
	qkv := tensors.New([]float32{1, 2, 3, 4, 5, 6}, 1, 6)
	parts := qkv.Chunk(3, 1)
	fmt.Println(len(parts), parts[0], parts[2])
	fmt.Println(qkv.Split(4, 1)[1])
	// Output:
	// 3 tensor([[1., 2.]]) tensor([[5., 6.]])
	// tensor([[5., 6.]])
}
