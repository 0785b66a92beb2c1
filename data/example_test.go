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

func ExampleLengthGroupedSampler() {
	// Twelve texts of 1 to 12 tokens in batches of 3: each megabatch of 6 random texts is sorted
	// by length, and the longest text of all comes first.
	lengths := []int{5, 12, 1, 7, 3, 9, 2, 11, 4, 8, 6, 10}
	s := &data.LengthGroupedSampler{Lengths: lengths, BatchSize: 3, Seed: 1, MegaBatchMult: 2}
	for _, batch := range s.Batches(0) {
		var ls []int
		for _, i := range batch {
			ls = append(ls, lengths[i])
		}
		fmt.Println(ls)
	}
	// Output:
	// [12 9 8]
	// [7 3 1]
	// [11 10 6]
	// [5 4 2]
}
