package data

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Transformed is a dataset whose samples pass through a per-sample transform (the transform
// argument of a torchvision dataset): augmentation, normalisation, reshaping.
type Transformed struct {
	Dataset Dataset
	Fn      func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor)
}

// WithTransform returns ds with fn applied to every sample it serves. A Loader prepares batches
// ahead on a goroutine, so fn runs there, overlapping the training step; for random augmentation
// give fn its own tensors.Generator (used by that goroutine only, it stays reproducible) and keep
// it free of tensors.NoGrad and tensors.Autocast, which switch the whole process:
//
//	g := tensors.NewGenerator(1)
//	noisy := data.WithTransform(train, func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
//		return x.Add(g.Randn(x.Shape()...).MulScalar(0.1)), y
//	})
func WithTransform(ds Dataset, fn func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor)) *Transformed {
	if ds == nil || fn == nil {
		panic("data: WithTransform: nil dataset or transform")
	}
	return &Transformed{Dataset: ds, Fn: fn}
}

// Len returns the underlying dataset's length.
func (t *Transformed) Len() int { return t.Dataset.Len() }

// Get returns sample i of the underlying dataset through the transform.
func (t *Transformed) Get(i int) (x, y *tensors.Tensor) {
	x, y = t.Dataset.Get(i)
	x, y = t.Fn(x, y)
	if x == nil {
		panic(fmt.Sprintf("data: WithTransform: the transform returned a nil input for sample %d", i))
	}
	return x, y
}
