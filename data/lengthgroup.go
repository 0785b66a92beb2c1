package data

import (
	"fmt"
	"sort"

	"github.com/goaccel/goaccel/tensors"
)

// SeededSampler is a BatchSampler whose batches cut one sample order per epoch, drawn from a
// seed, into consecutive runs of the Loader's batch size. The Accelerate layer shards such a
// sampler by drawing the order with rank 0's seed on every process, as Accelerate synchronises a
// sampler's generator.
type SeededSampler interface {
	BatchSampler
	// SamplerSeed returns the seed the order is drawn from.
	SamplerSeed() uint64
	// OrderWithSeed returns the sample order of epoch drawn from seed instead.
	OrderWithSeed(epoch int, seed uint64) []int
}

// LengthGroupedSampler batches samples of similar lengths together, so that a padding collator
// pads little, as transformers' LengthGroupedSampler (TrainingArguments.group_by_length): each
// epoch it draws a permutation (from Seed+epoch), cuts it into megabatches of MegaBatchMult ×
// BatchSize samples, sorts each megabatch by decreasing length, and moves the longest sample of
// all to the front so that the first batch shows the peak memory at once. Batches are then
// consecutive runs of BatchSize. The permutation comes from goaccel's generator, so the order is
// deterministic under a seed but not torch.randperm's.
type LengthGroupedSampler struct {
	Lengths   []int
	BatchSize int
	DropLast  bool
	Seed      uint64
	// MegaBatchMult is the megabatch size in batches; 0 takes transformers' default,
	// min(len(Lengths) / (4 × BatchSize), 50), at least 1.
	MegaBatchMult int
}

// NewLengthGroupedSampler returns a LengthGroupedSampler over lengths with the batch size,
// DropLast and seed of cfg (a Loader's Config, whose seed is filled in).
func NewLengthGroupedSampler(lengths []int, cfg LoaderConfig) *LengthGroupedSampler {
	bs := cfg.BatchSize
	if bs == 0 {
		bs = 1
	}
	return &LengthGroupedSampler{Lengths: lengths, BatchSize: bs, DropLast: cfg.DropLast, Seed: cfg.Seed}
}

// Len returns the number of batches per epoch.
func (s *LengthGroupedSampler) Len() int {
	return (&SequentialSampler{N: len(s.Lengths), BatchSize: s.BatchSize, DropLast: s.DropLast}).Len()
}

// SamplerSeed returns Seed.
func (s *LengthGroupedSampler) SamplerSeed() uint64 { return s.Seed }

// Order returns the sample order of epoch.
func (s *LengthGroupedSampler) Order(epoch int) []int { return s.OrderWithSeed(epoch, s.Seed) }

// OrderWithSeed returns the sample order of epoch drawn from seed+epoch.
func (s *LengthGroupedSampler) OrderWithSeed(epoch int, seed uint64) []int {
	if s.BatchSize <= 0 {
		panic(fmt.Sprintf("data: LengthGroupedSampler: BatchSize %d must be positive", s.BatchSize))
	}
	n := len(s.Lengths)
	if n == 0 {
		return nil
	}
	mult := s.MegaBatchMult
	if mult <= 0 {
		mult = max(min(n/(s.BatchSize*4), 50), 1)
	}
	return groupByLength(tensors.NewGenerator(seed+uint64(epoch)).Perm(n), s.Lengths, mult*s.BatchSize)
}

// groupByLength is transformers' get_length_grouped_indices after its torch.randperm: perm cut
// into megabatches of size, each sorted by decreasing length (stably), the longest sample of all
// swapped to the front. It reorders perm in place and returns it.
func groupByLength(perm, lengths []int, size int) []int {
	var megas [][]int
	for i := 0; i < len(perm); i += size {
		m := perm[i:min(i+size, len(perm))]
		sort.SliceStable(m, func(a, b int) bool { return lengths[m[a]] > lengths[m[b]] })
		megas = append(megas, m)
	}
	longest := 0
	for k, m := range megas {
		if lengths[m[0]] > lengths[megas[longest][0]] {
			longest = k
		}
	}
	megas[0][0], megas[longest][0] = megas[longest][0], megas[0][0]
	return perm // the megabatches are consecutive slices of perm
}

// Batches returns the index lists of every batch of epoch.
func (s *LengthGroupedSampler) Batches(epoch int) [][]int {
	return s.batchesOf(s.Order(epoch))
}

func (s *LengthGroupedSampler) batchesOf(order []int) [][]int {
	out := make([][]int, s.Len())
	for b := range out {
		end := min((b+1)*s.BatchSize, len(order))
		out[b] = order[b*s.BatchSize : end : end]
	}
	return out
}
