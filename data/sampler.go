package data

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// BatchSampler decides which samples make up each batch of an epoch. The Loader asks it once per
// epoch; the Accelerate layer replaces a Loader's sampler with one that shards these batches
// across processes.
type BatchSampler interface {
	// Batches returns the dataset indices of every batch of epoch, in order.
	Batches(epoch int) [][]int
	// Len returns the number of batches per epoch.
	Len() int
}

// PassStopper is a BatchSampler that may end a pass early: the Loader asks
// StopPass before each batch it yields, and a true ends the pass there
// (Next returns false). The Accelerate layer's sampler makes it the step
// boundary where the ranks of a launch agree on a stop the launcher asked
// for: a finish (a Stop button) ends the training pass there.
type PassStopper interface {
	StopPass() bool
}

// SequentialSampler is the default BatchSampler: consecutive batches of BatchSize over N samples,
// in order or, with Shuffle, in a permutation drawn from a generator seeded with Seed+epoch; with
// DropLast a final short batch is dropped.
type SequentialSampler struct {
	N         int
	BatchSize int
	Shuffle   bool
	DropLast  bool
	Seed      uint64
}

// Len returns the number of batches per epoch.
func (s *SequentialSampler) Len() int {
	if s.BatchSize <= 0 {
		return 0
	}
	if s.DropLast {
		return s.N / s.BatchSize
	}
	return (s.N + s.BatchSize - 1) / s.BatchSize
}

// Order returns the sample order of epoch (a permutation with Shuffle, 0..N-1 without).
func (s *SequentialSampler) Order(epoch int) []int {
	if s.Shuffle {
		return tensors.NewGenerator(s.Seed + uint64(epoch)).Perm(s.N)
	}
	order := make([]int, s.N)
	for i := range order {
		order[i] = i
	}
	return order
}

// Batches returns the index lists of every batch of epoch.
func (s *SequentialSampler) Batches(epoch int) [][]int {
	if s.BatchSize <= 0 {
		panic(fmt.Sprintf("data: SequentialSampler: BatchSize %d must be positive", s.BatchSize))
	}
	order := s.Order(epoch)
	nb := s.Len()
	out := make([][]int, nb)
	for b := range out {
		end := min((b+1)*s.BatchSize, len(order))
		out[b] = order[b*s.BatchSize : end : end]
	}
	return out
}
