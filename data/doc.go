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
package data
