package data

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Subset is the part of a dataset at the given indices (torch.utils.data.Subset).
type Subset struct {
	Dataset Dataset
	Indices []int
}

// Len returns the number of indices.
func (s *Subset) Len() int { return len(s.Indices) }

// Get returns sample Indices[i] of the underlying dataset.
func (s *Subset) Get(i int) (x, y *tensors.Tensor) { return s.Dataset.Get(s.Indices[i]) }

// GetBatch maps the batch's indices and collates in one step when the underlying dataset can.
func (s *Subset) GetBatch(indices []int) (x, y *tensors.Tensor) {
	mapped := make([]int, len(indices))
	for k, i := range indices {
		mapped[k] = s.Indices[i]
	}
	if bg, ok := s.Dataset.(BatchGetter); ok {
		return bg.GetBatch(mapped)
	}
	return collateGet(s.Dataset, mapped)
}

// RandomSplit splits ds into non-overlapping random subsets of the given lengths, which must add up
// to ds.Len() (torch.utils.data.random_split with a seeded generator):
//
//	parts := data.RandomSplit(train, []int{55000, 5000}, 42) // train, validation
func RandomSplit(ds Dataset, lengths []int, seed uint64) []*Subset {
	total := 0
	for _, n := range lengths {
		if n < 0 {
			panic(fmt.Sprintf("data: RandomSplit: negative length in %v", lengths))
		}
		total += n
	}
	if total != ds.Len() {
		panic(fmt.Sprintf("data: RandomSplit: lengths %v add up to %d, the dataset has %d samples", lengths, total, ds.Len()))
	}
	perm := tensors.NewGenerator(seed).Perm(total)
	out := make([]*Subset, len(lengths))
	off := 0
	for i, n := range lengths {
		out[i] = &Subset{Dataset: ds, Indices: perm[off : off+n : off+n]}
		off += n
	}
	return out
}
