package data

import (
	"fmt"
	"github.com/goaccel/goaccel/internal/profiling"
	"runtime"

	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/internal/workerinfo"
	"github.com/goaccel/goaccel/tensors"
)

// LoaderConfig configures a Loader (torch.utils.data.DataLoader's batch_size, shuffle, drop_last,
// the generator seed and prefetch_factor).
type LoaderConfig struct {
	BatchSize int    // samples per batch; 0 means 1
	Shuffle   bool   // reshuffle every epoch
	DropLast  bool   // drop the last batch when it is short
	Seed      uint64 // shuffle seed; 0 draws one from tensors.DefaultGenerator() at NewLoader
	// Prefetch is how many batches are prepared ahead, on a goroutine, while the caller trains on
	// the current one; 0 means DefaultPrefetch (2), NoPrefetch (or any negative value) prepares
	// each batch in Next. The order of batches does not depend on it.
	Prefetch int
	// GroupByLength batches samples of similar lengths together (transformers' group_by_length)
	// with a LengthGroupedSampler drawn from Seed+epoch, whatever Shuffle says; the dataset must
	// implement SampleLengths.
	GroupByLength bool
}

// Loader iterates a Dataset in batches. Each pass (Next until it returns false) is one epoch; the
// next call to Next starts the following epoch:
//
//	for loader.Next() {
//		x, y := loader.Batch()
//	}
//
// Batches are collated (the dataset's Get or GetBatch, and the stacking) on a goroutine a few
// batches ahead of Next (LoaderConfig.Prefetch), so data preparation overlaps the training step.
// The dataset is therefore read from that goroutine: its Get must not change state the training
// loop uses, must not call tensors.NoGrad or tensors.Autocast (they switch the whole process), and
// random augmentation should draw from its own tensors.Generator rather than the default one, which
// the training step also draws from. A pass abandoned by breaking out of the loop keeps its
// goroutine until Reset (or SetEpoch, or the Loader being garbage collected).
type Loader struct {
	ds      Dataset
	cfg     LoaderConfig
	sampler BatchSampler

	epoch   int     // epoch of the pass in progress, or of the next pass
	running bool    // a pass is in progress
	batches [][]int // index lists of the pass in progress
	pos     int     // batches consumed in this pass
	skip    int     // batches to skip at the start of the next pass
	cur     []int
	x, y    *tensors.Tensor
	named   *Batch // the current batch of a NamedBatchGetter, else nil
	tf      func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor)
	ntf     func(b *Batch) *Batch
	pf      *prefetcher   // prepares the batches of the pass in progress; nil without prefetching
	slot    *prefetchSlot // pf, for the cleanup that stops it when the Loader is collected
}

// NewLoader returns a Loader over ds. It panics on a nil dataset or a negative batch size, and
// on GroupByLength for a dataset without SampleLengths.
func NewLoader(ds Dataset, cfg LoaderConfig) *Loader {
	if ds == nil {
		panic("data: NewLoader: nil dataset")
	}
	if cfg.BatchSize < 0 {
		panic(fmt.Sprintf("data: NewLoader: BatchSize %d must be positive", cfg.BatchSize))
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = 1
	}
	if cfg.Seed == 0 {
		cfg.Seed = tensors.DefaultGenerator().Uint64()
	}
	switch {
	case cfg.Prefetch == 0:
		cfg.Prefetch = DefaultPrefetch
	case cfg.Prefetch < 0:
		cfg.Prefetch = NoPrefetch
	}
	l := &Loader{ds: ds, cfg: cfg, slot: &prefetchSlot{}}
	l.sampler = &SequentialSampler{N: ds.Len(), BatchSize: cfg.BatchSize, Shuffle: cfg.Shuffle,
		DropLast: cfg.DropLast, Seed: cfg.Seed}
	if cfg.GroupByLength {
		sl, ok := ds.(SampleLengths)
		if !ok {
			panic(fmt.Sprintf("data: NewLoader: GroupByLength needs the lengths of the samples, and dataset %T has no SampleLengths method", ds))
		}
		lengths := sl.SampleLengths()
		if len(lengths) != ds.Len() {
			panic(fmt.Sprintf("data: NewLoader: dataset %T gave %d sample lengths for %d samples", ds, len(lengths), ds.Len()))
		}
		l.sampler = NewLengthGroupedSampler(lengths, cfg)
	}
	runtime.AddCleanup(l, (*prefetchSlot).stop, l.slot)
	return l
}

// Next loads the next batch and reports whether there was one. After the last batch of an epoch
// it returns false once; the following call starts the next epoch.
func (l *Loader) Next() bool {
	// A profile in progress (accelerate.Profile) shows the time the loop waits for its batch.
	defer profiling.Begin(profiling.CatData, "DataLoader.Next", profiling.Args{}).End()
	// What a launched worker is doing, for its launcher's status table.
	w := host.Current().Worker
	defer w.SetPhase(w.SetPhase(workerinfo.PhaseLoading))
	if !l.running {
		// The batch sampler runs here, on the caller's goroutine: a prepared loader's sampler
		// takes part in a collective, which every process must reach in the same order.
		l.batches = l.sampler.Batches(l.epoch)
		l.pos = min(l.skip, len(l.batches))
		l.skip = 0
		l.running = true
		if l.cfg.Prefetch > 0 && l.pos < len(l.batches) {
			l.pf = startPrefetch(l.ds, l.batches[l.pos:], l.cfg.Prefetch)
			l.slot.set(l.pf)
		}
	}
	if l.pos >= len(l.batches) {
		l.endPass()
		return false
	}
	if st, ok := l.sampler.(PassStopper); ok && st.StopPass() {
		l.endPass()
		return false
	}
	l.cur = l.batches[l.pos]
	l.pos++
	w.AddSamples(len(l.cur))
	var b prepared
	if l.pf != nil {
		b = l.nextPrefetched()
	} else {
		b = collate(l.ds, l.cur, false)
	}
	l.x, l.y, l.named = b.x, b.y, b.named
	switch {
	case l.named != nil:
		if l.ntf != nil {
			l.named = l.ntf(l.named)
		}
		l.x, l.y = l.named.xy()
	case l.tf != nil:
		l.x, l.y = l.tf(l.x, l.y)
	}
	return true
}

// nextPrefetched takes the next batch from the prefetcher. When preparing it panicked, the
// prefetcher is stopped (the pass goes on without it) and the panic raised here.
func (l *Loader) nextPrefetched() prepared {
	defer func() {
		if r := recover(); r != nil {
			l.stopPrefetch()
			panic(r)
		}
	}()
	return l.pf.next(l.pos - 1)
}

// stopPrefetch ends the prefetch goroutine of the pass in progress, if any.
func (l *Loader) stopPrefetch() {
	if l.pf != nil {
		l.slot.stop()
		l.pf = nil
	}
}

func (l *Loader) endPass() {
	l.stopPrefetch()
	l.running = false
	l.batches = nil
	l.cur = nil
	l.x, l.y, l.named = nil, nil, nil
	l.epoch++
}

// collate builds the batch tensors of indices. It records no autograd history (samples are
// detached) without calling tensors.NoGrad, which would switch recording off for the whole
// process while the training step runs on another goroutine.
func collate(ds Dataset, indices []int, background bool) (b prepared) {
	switch g := ds.(type) {
	case NamedBatchGetter:
		b.named = g.GetNamedBatch(indices)
		if b.named == nil || len(b.named.names) == 0 {
			panic(fmt.Sprintf("data: Loader: dataset %T returned an empty named batch", ds))
		}
	case BatchGetter:
		b.x, b.y = g.GetBatch(indices)
	default:
		b.x, b.y = collateSamples(ds, indices, background)
	}
	return b
}

// collateGet stacks ds.Get(i) over indices: the path for datasets without GetBatch.
func collateGet(ds Dataset, indices []int) (x, y *tensors.Tensor) {
	return collateSamples(ds, indices, false)
}

// collateSamples is collateGet. In the background (on the prefetch goroutine) it yields the
// processor after each sample: the training step's parallel kernels fork work onto every
// processor and wait for all of it, and Go would otherwise let a busy prefetch goroutine keep its
// processor for a whole 10 ms time slice.
func collateSamples(ds Dataset, indices []int, background bool) (x, y *tensors.Tensor) {
	xs := make([]*tensors.Tensor, len(indices))
	var ys []*tensors.Tensor
	for k, i := range indices {
		xi, yi := ds.Get(i)
		if xi == nil {
			panic(fmt.Sprintf("data: Loader: dataset %T returned a nil input for sample %d", ds, i))
		}
		if background {
			runtime.Gosched()
		}
		xs[k] = xi.Detach()
		if k == 0 && yi != nil {
			ys = make([]*tensors.Tensor, len(indices))
		}
		if (ys != nil) != (yi != nil) {
			panic(fmt.Sprintf("data: Loader: dataset %T returned a nil target for some samples and not others (sample %d)", ds, i))
		}
		if ys != nil {
			ys[k] = yi.Detach()
		}
	}
	x = tensors.Stack(xs, 0)
	if ys != nil {
		y = tensors.Stack(ys, 0)
	}
	return x, y
}

// Batch returns the current batch (valid after Next returned true): inputs stacked along a new
// first dimension, and targets likewise (nil if the dataset has none). For a dataset of named
// batches (NamedBatchGetter) x is the batch's first tensor (input_ids for a tokenized text
// dataset) and y its "labels" (nil without); Named returns them all.
func (l *Loader) Batch() (x, y *tensors.Tensor) {
	if l.x == nil {
		panic("data: Loader.Batch called without a successful Next")
	}
	return l.x, l.y
}

// Named returns the current batch of a dataset of named batches (NamedBatchGetter), valid after
// Next returned true: input_ids, attention_mask, labels… of a tokenized text dataset.
func (l *Loader) Named() *Batch {
	if l.x == nil {
		panic("data: Loader.Named called without a successful Next")
	}
	if l.named == nil {
		panic(fmt.Sprintf("data: Loader.Named: dataset %T yields (x, y) batches, not named ones; use Batch", l.ds))
	}
	return l.named
}

// Indices returns the dataset indices of the current batch.
func (l *Loader) Indices() []int { return append([]int(nil), l.cur...) }

// Len returns the number of batches per epoch.
func (l *Loader) Len() int { return l.sampler.Len() }

// Reset abandons the pass in progress, if any, and stops its prefetch goroutine; the next Next
// starts the following epoch, as breaking out of a PyTorch DataLoader loop and iterating again
// does. Call it after breaking out of a loop early when the Loader lives on.
func (l *Loader) Reset() {
	if l.running {
		l.endPass()
	}
}

// Epoch returns the epoch of the pass in progress, or of the next pass when none is running.
func (l *Loader) Epoch() int { return l.epoch }

// SetEpoch sets the epoch of the next pass (and abandons the pass in progress): shuffling depends
// on it, like DistributedSampler.set_epoch.
func (l *Loader) SetEpoch(epoch int) {
	if epoch < 0 {
		panic(fmt.Sprintf("data: Loader.SetEpoch: negative epoch %d", epoch))
	}
	l.Reset()
	l.epoch = epoch
}

// SkipBatches makes the next pass start after its first n batches (for resuming mid-epoch, as
// Accelerate's skip_first_batches). It applies to one pass only.
func (l *Loader) SkipBatches(n int) {
	if n < 0 {
		panic(fmt.Sprintf("data: Loader.SkipBatches: negative count %d", n))
	}
	l.skip = n
}

// Position returns how many batches of the pass in progress have been returned (0 between passes).
func (l *Loader) Position() int {
	if !l.running {
		return 0
	}
	return l.pos
}

// Dataset returns the dataset.
func (l *Loader) Dataset() Dataset { return l.ds }

// Config returns the configuration, with defaults filled in (BatchSize ≥ 1, Seed chosen,
// Prefetch DefaultPrefetch or NoPrefetch when it was 0 or negative).
func (l *Loader) Config() LoaderConfig { return l.cfg }

// Sampler returns the batch sampler (a *SequentialSampler unless replaced).
func (l *Loader) Sampler() BatchSampler { return l.sampler }

// SetSampler replaces the batch sampler (and abandons the pass in progress).
func (l *Loader) SetSampler(s BatchSampler) {
	if s == nil {
		panic("data: Loader.SetSampler: nil sampler")
	}
	l.Reset()
	l.sampler = s
}

// BatchTransform returns the function installed with SetBatchTransform (nil when none is).
func (l *Loader) BatchTransform() func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor) {
	return l.tf
}

// SetBatchTransform installs fn to run on every collated batch before Batch returns it (nil removes
// it): the hook for moving batches to a device or slicing them per process. Named batches go
// through SetNamedBatchTransform's function instead.
func (l *Loader) SetBatchTransform(fn func(x, y *tensors.Tensor) (*tensors.Tensor, *tensors.Tensor)) {
	l.tf = fn
}

// NamedBatchTransform returns the function installed with SetNamedBatchTransform (nil when none
// is).
func (l *Loader) NamedBatchTransform() func(b *Batch) *Batch { return l.ntf }

// SetNamedBatchTransform installs fn to run on every named batch (of a NamedBatchGetter) before
// Named and Batch return it (nil removes it), as SetBatchTransform does for (x, y) batches.
func (l *Loader) SetNamedBatchTransform(fn func(b *Batch) *Batch) {
	l.ntf = fn
}
