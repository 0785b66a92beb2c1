package data

import (
	"fmt"
	"strings"

	"github.com/goaccel/goaccel/tensors"
)

// Batch is one batch as named tensors, in the order they were set: the dict a PyTorch
// DataLoader yields for a tokenized text dataset ({"input_ids", "attention_mask", "labels"}),
// which a model takes as model(**batch).
type Batch struct {
	names   []string
	tensors []*tensors.Tensor
}

// NewBatch returns an empty batch.
func NewBatch() *Batch { return &Batch{} }

// Set stores t under name, replacing a tensor of that name (in its place) or adding it at the end,
// and returns b.
func (b *Batch) Set(name string, t *tensors.Tensor) *Batch {
	if t == nil {
		panic(fmt.Sprintf("data: Batch.Set(%q): nil tensor", name))
	}
	for i, n := range b.names {
		if n == name {
			b.tensors[i] = t
			return b
		}
	}
	b.names = append(b.names, name)
	b.tensors = append(b.tensors, t)
	return b
}

// Get returns the tensor named name, or nil when the batch has none.
func (b *Batch) Get(name string) *tensors.Tensor {
	for i, n := range b.names {
		if n == name {
			return b.tensors[i]
		}
	}
	return nil
}

// Names returns the names in order.
func (b *Batch) Names() []string { return append([]string(nil), b.names...) }

// Len returns the number of samples: the first dimension of the first tensor (0 when empty).
func (b *Batch) Len() int {
	if len(b.tensors) == 0 || b.tensors[0].Dim() == 0 {
		return 0
	}
	return b.tensors[0].Size(0)
}

// Apply returns a new batch holding fn(name, t) for each tensor, in the same order (moving a
// batch to a device: b.Apply(func(_ string, t *tensors.Tensor) *tensors.Tensor { return t.To(dev) })).
func (b *Batch) Apply(fn func(name string, t *tensors.Tensor) *tensors.Tensor) *Batch {
	out := &Batch{names: append([]string(nil), b.names...), tensors: make([]*tensors.Tensor, len(b.tensors))}
	for i, t := range b.tensors {
		out.tensors[i] = fn(b.names[i], t)
		if out.tensors[i] == nil {
			panic(fmt.Sprintf("data: Batch.Apply: the function returned nil for %q", b.names[i]))
		}
	}
	return out
}

// String lists the names with their shapes and dtypes.
func (b *Batch) String() string {
	parts := make([]string, len(b.names))
	for i, n := range b.names {
		parts[i] = fmt.Sprintf("%s %v %v", n, b.tensors[i].Shape(), b.tensors[i].DType())
	}
	return "Batch{" + strings.Join(parts, ", ") + "}"
}

// xy returns what Loader.Batch gives for a named batch: the first tensor and "labels".
func (b *Batch) xy() (x, y *tensors.Tensor) {
	if len(b.tensors) > 0 {
		x = b.tensors[0]
	}
	return x, b.Get("labels")
}

// NamedBatchGetter is implemented by datasets whose batches are several named tensors (a
// tokenized text dataset behind a padding collator). The Loader collates their batches with
// GetNamedBatch instead of GetBatch or Get; Loader.Named returns the result.
type NamedBatchGetter interface {
	GetNamedBatch(indices []int) *Batch
}

// SampleLengths is implemented by datasets whose samples have a length (tokens per text); a
// Loader with LoaderConfig.GroupByLength batches samples of similar lengths together.
type SampleLengths interface {
	SampleLengths() []int
}
