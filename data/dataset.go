package data

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Dataset is a sized collection of (input, target) samples. A type defined in a notebook cell
// implements it with two methods; y may be nil for unlabelled data.
type Dataset interface {
	Len() int
	Get(i int) (x, y *tensors.Tensor)
}

// BatchGetter is implemented by datasets that can collate a whole batch at once (TensorDataset,
// MNIST); the Loader uses it instead of calling Get per sample and stacking.
type BatchGetter interface {
	GetBatch(indices []int) (x, y *tensors.Tensor)
}

// TensorDataset serves the rows of tensors that share their first dimension
// (torch.utils.data.TensorDataset with one input and one target).
type TensorDataset struct {
	X, Y *tensors.Tensor // Y may be nil
}

// NewTensorDataset returns a dataset whose sample i is (x[i], y[i]); y may be nil. It panics if
// the first dimensions differ.
func NewTensorDataset(x, y *tensors.Tensor) *TensorDataset {
	if x == nil {
		panic("data: NewTensorDataset: x is nil")
	}
	if x.Dim() == 0 {
		panic("data: NewTensorDataset: x is a scalar; samples are rows of its first dimension")
	}
	if y != nil && (y.Dim() == 0 || y.Size(0) != x.Size(0)) {
		panic(fmt.Sprintf("data: NewTensorDataset: x has shape %v and y has shape %v; their first dimensions must match", x.Shape(), y.Shape()))
	}
	return &TensorDataset{X: x.Detach().Contiguous(), Y: detach(y)}
}

func detach(t *tensors.Tensor) *tensors.Tensor {
	if t == nil {
		return nil
	}
	return t.Detach().Contiguous()
}

// Len returns the number of samples.
func (d *TensorDataset) Len() int { return d.X.Size(0) }

// Get returns row i of X and of Y.
func (d *TensorDataset) Get(i int) (x, y *tensors.Tensor) {
	if i < 0 || i >= d.Len() {
		panic(fmt.Sprintf("data: TensorDataset.Get: index %d out of range [0, %d)", i, d.Len()))
	}
	x = d.X.Slice(0, i, i+1).Squeeze(0)
	if d.Y != nil {
		y = d.Y.Slice(0, i, i+1).Squeeze(0)
	}
	return x, y
}

// GetBatch returns the rows at indices of X and of Y, gathered in one copy each.
func (d *TensorDataset) GetBatch(indices []int) (x, y *tensors.Tensor) {
	idx := make([]int64, len(indices))
	n := d.Len()
	for k, i := range indices {
		if i < 0 || i >= n {
			panic(fmt.Sprintf("data: TensorDataset.GetBatch: index %d out of range [0, %d)", i, n))
		}
		idx[k] = int64(i)
	}
	it := tensors.FromInt64(idx, len(idx))
	// Detached rather than under tensors.NoGrad, which is process-wide: the Loader calls this on
	// its prefetch goroutine while the training step records its graph.
	x = d.X.Detach().IndexSelect(0, it)
	if d.Y != nil {
		y = d.Y.Detach().IndexSelect(0, it)
	}
	return x, y
}
