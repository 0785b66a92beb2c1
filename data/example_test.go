package data_test

import (
	"fmt"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/tensors"
)

// Squares is a dataset defined the way a notebook cell defines one: sample i is (i, i²).
type Squares struct{ N int }

func (s Squares) Len() int { return s.N }

func (s Squares) Get(i int) (x, y *tensors.Tensor) {
	return tensors.Scalar(float64(i)), tensors.Scalar(float64(i * i))
}

func ExampleDataset() {
	loader := data.NewLoader(Squares{N: 5}, data.LoaderConfig{BatchSize: 2})
	for loader.Next() {
		x, y := loader.Batch()
		fmt.Println(x.Float32s(), y.Float32s())
	}
	// Output:
	// [0 1] [0 1]
	// [2 3] [4 9]
	// [4] [16]
}

func ExampleNewLoader() {
	x := tensors.Arange(0, 10, 1).Reshape(10, 1)
	y := tensors.FromInt64([]int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 10)
	loader := data.NewLoader(data.NewTensorDataset(x, y), data.LoaderConfig{BatchSize: 4, DropLast: true})
	fmt.Println("batches per epoch:", loader.Len())
	for epoch := 0; epoch < 2; epoch++ {
		for loader.Next() {
			_, yb := loader.Batch()
			fmt.Println("epoch", epoch, yb.Int64s())
		}
	}
	// Output:
	// batches per epoch: 2
	// epoch 0 [0 1 2 3]
	// epoch 0 [4 5 6 7]
	// epoch 1 [0 1 2 3]
	// epoch 1 [4 5 6 7]
}
