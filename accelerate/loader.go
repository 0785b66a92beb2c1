package accelerate

import (
	"encoding/binary"
	"fmt"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/tensors"
)

// shardSampler replaces a prepared loader's batch sampler: every process
// draws the same epoch order (the seed comes from rank 0 each epoch) and
// keeps its share of the batches, as Accelerate's BatchSamplerShard.
type shardSampler struct {
	acc     *Accelerator
	loader  *data.Loader
	n       int // dataset length
	shuffle bool
	seed    uint64             // rank 0's loader seed
	seeded  data.SeededSampler // the loader's own sampler when it draws its order from a seed (length grouping), else nil
	spec    shardSpec
	length  int // batches per epoch on this process
	common  int // batches per epoch that every process gets (all but a short last round)
	last    int // batches of the pass in progress
}

func (a *Accelerator) prepareLoader(l *data.Loader) *data.Loader {
	if _, done := l.Sampler().(*shardSampler); done {
		return l
	}
	cfg := l.Config()
	n := l.Dataset().Len()
	bs := cfg.BatchSize
	if a.cfg.SplitBatches && bs%a.c.Size() != 0 {
		panic(fmt.Sprintf("accelerate: Prepare: with SplitBatches the loader's batch size (%d) must be a multiple of the number of processes (%d)", bs, a.c.Size()))
	}
	s := &shardSampler{acc: a, loader: l, n: n, shuffle: cfg.Shuffle, seed: cfg.Seed,
		spec: shardSpec{numProcs: a.c.Size(), rank: a.c.Rank(), batchSize: bs, dropLast: cfg.DropLast,
			split: a.cfg.SplitBatches, even: a.cfg.evenBatches}}
	if seeded, ok := l.Sampler().(data.SeededSampler); ok {
		s.seeded, s.shuffle, s.seed = seeded, true, seeded.SamplerSeed()
	}
	all := batchesOf(identity(n), bs, cfg.DropLast)
	s.length = len(s.spec.shard(all))
	s.common = s.length
	if !s.spec.even {
		for r := range a.c.Size() {
			spec := s.spec
			spec.rank = r
			s.common = min(s.common, len(spec.shard(all)))
		}
	}
	l.SetSampler(s)
	if !a.device.IsCPU() {
		prev, dev := l.BatchTransform(), a.device
		l.SetBatchTransform(func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
			if prev != nil {
				x, y = prev(x, y)
			}
			return toDevice(x, dev), toDevice(y, dev)
		})
		prevNamed := l.NamedBatchTransform()
		l.SetNamedBatchTransform(func(b *data.Batch) *data.Batch {
			if prevNamed != nil {
				b = prevNamed(b)
			}
			return b.Apply(func(_ string, t *tensors.Tensor) *tensors.Tensor { return toDevice(t, dev) })
		})
	}
	a.samplers = append(a.samplers, s)
	a.watchBoundaries()
	return l
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Batches returns this process's batches of epoch; every process calls it at
// the start of a pass, when the shuffle seed is taken from rank 0. A loader
// whose own sampler draws its order from a seed (data.SeededSampler: batches
// grouped by length) draws it with rank 0's seed.
func (s *shardSampler) Batches(epoch int) [][]int {
	order := identity(s.n)
	if s.shuffle {
		seed := s.seed
		if s.seeded == nil {
			seed += uint64(epoch)
		}
		if s.acc.c.Size() > 1 {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], seed)
			got, err := s.acc.c.BroadcastBytes(b[:], 0)
			must(err, "loader: share the shuffle seed")
			seed = binary.LittleEndian.Uint64(got)
		}
		if s.seeded != nil {
			order = s.seeded.OrderWithSeed(epoch, seed)
			if len(order) != s.n {
				panic(fmt.Sprintf("accelerate: loader: its sampler %T ordered %d samples; the dataset has %d", s.seeded, len(order), s.n))
			}
		} else {
			order = tensors.NewGenerator(seed).Perm(s.n)
		}
	}
	out := s.spec.shard(batchesOf(order, s.spec.batchSize, s.spec.dropLast))
	s.last = len(out)
	s.acc.begin(s)
	return out
}

// Len returns the number of batches per epoch on this process.
func (s *shardSampler) Len() int { return s.length }

// atEnd reports whether the loader's current batch is the last of its pass.
func (s *shardSampler) atEnd() bool {
	return s.loader.Position() > 0 && s.loader.Position() == s.last
}

// active returns the prepared loader whose pass began most recently and is
// still running (Accelerate's GradientState.active_dataloader), or nil.
func (a *Accelerator) active() *shardSampler {
	for i := len(a.running) - 1; i >= 0; i-- {
		if s := a.running[i]; s.loader.Position() > 0 {
			return s
		}
	}
	return nil
}

// begin records that s started a pass.
func (a *Accelerator) begin(s *shardSampler) {
	kept := a.running[:0]
	for _, r := range a.running {
		if r != s && r.loader.Position() > 0 {
			kept = append(kept, r)
		}
	}
	a.running = append(kept, s)
}

func (a *Accelerator) endOfDataloader() bool {
	s := a.active()
	return s != nil && s.atEnd()
}

// SkipFirstBatches makes the next pass of a prepared loader start after its
// first n batches (for resuming mid-epoch). GatherForMetrics still drops the
// padding of the last batch.
func (a *Accelerator) SkipFirstBatches(l *data.Loader, n int) *data.Loader {
	l.SkipBatches(n)
	return l
}
