package datasets

import (
	"fmt"
	"slices"
	"sync"
)

// MapOptions configure Map (the arguments of datasets' Dataset.map).
type MapOptions struct {
	// Batched gives the function BatchSize rows at a time instead of one.
	Batched bool
	// BatchSize is the number of rows per call with Batched; 0 means 1,000, as in datasets. The
	// last batch of each shard may be shorter.
	BatchSize int
	// NumProc runs the function on that many goroutines, each over a contiguous shard of the
	// rows (datasets' num_proc, with goroutines for processes); 0 or 1 runs it on the caller's.
	// The function must then be safe for concurrent use (a tokenizer is). The result does not
	// depend on NumProc when the function treats each row on its own.
	NumProc int
	// RemoveColumns are input columns left out of the result (the function still sees them); a
	// column the function returns is kept even if named here, as in datasets.
	RemoveColumns []string
	// CacheKey names the function for the cache: Map stores its result on disk under a
	// fingerprint made of the dataset's fingerprint, CacheKey and these options, and a later Map
	// with the same three loads it instead of calling the function. Go cannot hash a function as
	// datasets hashes a Python one, so the key is the caller's word for "this function": change
	// it whenever the function changes what it returns ("tokenize minilm max_length=128 v2"). ""
	// caches nothing and gives the result a random fingerprint, so nothing derived from it is
	// cached either, as datasets does for a function it cannot hash.
	CacheKey string
	// CacheDir is the cache folder; "" means goaccel/datasets in the user's cache directory
	// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache).
	CacheDir string
}

// Map applies fn to the dataset's rows and returns the dataset with the columns fn returns added
// (or replacing input columns of the same names), as datasets' Dataset.map does:
//
//	tokenized, err := train.Map(func(b *datasets.Dataset) (*datasets.Dataset, error) {
//		texts, err := b.Strings("text")
//		if err != nil {
//			return nil, err
//		}
//		enc, err := tok.Batch(texts, tokenizers.Options{Truncation: tokenizers.LongestFirst, MaxLength: 128})
//		if err != nil {
//			return nil, err
//		}
//		return datasets.FromColumns(map[string]any{"input_ids": enc.InputIDs,
//			"attention_mask": enc.AttentionMask, "token_type_ids": enc.TokenTypeIDs})
//	}, datasets.MapOptions{Batched: true, NumProc: 4, RemoveColumns: []string{"text"}, CacheKey: "minilm max128"})
//
// fn gets one row, or a batch of rows with Batched, as a Dataset, and returns a Dataset with one
// row per input row. An error or a panic in fn is returned naming the rows of the batch. With a
// CacheKey the result is cached on disk (see MapOptions.CacheKey) and CacheFile names the file.
func (d *Dataset) Map(fn func(batch *Dataset) (*Dataset, error), opts MapOptions) (*Dataset, error) {
	if fn == nil {
		return nil, fmt.Errorf("datasets: Map: nil function")
	}
	if opts.BatchSize < 0 || opts.NumProc < 0 {
		return nil, fmt.Errorf("datasets: Map: negative BatchSize (%d) or NumProc (%d)", opts.BatchSize, opts.NumProc)
	}
	for _, n := range opts.RemoveColumns {
		if d.col(n) == nil {
			return nil, fmt.Errorf("datasets: Map: RemoveColumns: no column %q (the dataset has %v)", n, d.ColumnNames())
		}
	}
	bs := 1
	if opts.Batched {
		bs = opts.BatchSize
		if bs == 0 {
			bs = 1000
		}
	}
	fingerprint, file := randomFingerprint(), ""
	if opts.CacheKey != "" {
		fingerprint = derive(d.fingerprint, "map", opts.CacheKey, opts.Batched, bs, opts.RemoveColumns)
		dir, err := cacheDir(opts.CacheDir)
		if err != nil {
			return nil, fmt.Errorf("datasets: Map: %w", err)
		}
		file = cachePath(dir, fingerprint)
		if c, ok := loadCache(file, fingerprint); ok {
			return c, nil
		}
	}
	outs, err := d.mapBatches(fn, bs, max(opts.NumProc, 1))
	if err != nil {
		return nil, err
	}
	added, err := concatOutputs(outs)
	if err != nil {
		return nil, fmt.Errorf("datasets: Map: %w", err)
	}
	kept := d
	if len(opts.RemoveColumns) > 0 {
		kept, _ = d.RemoveColumns(opts.RemoveColumns...)
	}
	res := kept.withColumns(added, fingerprint)
	if file != "" {
		if err := saveCache(file, res); err != nil {
			return nil, fmt.Errorf("datasets: Map: write the cache (set MapOptions.CacheDir to a writable folder, or leave CacheKey empty): %w", err)
		}
		res.cacheFile = file
	}
	return res, nil
}

// batchOut is one call's result, with the rows it covered.
type batchOut struct {
	lo, hi int
	ds     *Dataset
}

// mapBatches calls fn on every batch, procs shards in parallel, and returns the results in row
// order. A shard stops at its first failing batch and the others run on, so that the error
// returned, the first shard's, does not depend on timing.
func (d *Dataset) mapBatches(fn func(*Dataset) (*Dataset, error), bs, procs int) ([]batchOut, error) {
	procs = max(min(procs, d.n), 1)
	var shards [][]batchOut
	lo := 0
	for s := range procs {
		size := d.n / procs
		if s < d.n%procs {
			size++
		}
		var batches []batchOut
		for b := lo; b < lo+size; b += bs {
			batches = append(batches, batchOut{lo: b, hi: min(b+bs, lo+size)})
		}
		shards = append(shards, batches)
		lo += size
	}
	errs := make([]error, procs)
	run := func(s int) {
		for k := range shards[s] {
			b := &shards[s][k]
			out, err := callMap(fn, d.rows(b.lo, b.hi))
			if err == nil && out.Len() != b.hi-b.lo {
				err = fmt.Errorf("the function returned %d rows for %d", out.Len(), b.hi-b.lo)
			}
			if err != nil {
				errs[s] = fmt.Errorf("datasets: Map: rows %d to %d: %w", b.lo, b.hi-1, err)
				return
			}
			b.ds = out
		}
	}
	if procs == 1 {
		run(0)
	} else {
		var wg sync.WaitGroup
		for s := range procs {
			wg.Go(func() { run(s) })
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return slices.Concat(shards...), nil
}

// callMap calls fn, turning a panic (in an interpreted cell's function too) into an error.
func callMap(fn func(*Dataset) (*Dataset, error), batch *Dataset) (out *Dataset, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the function panicked: %v", r)
		}
	}()
	out, err = fn(batch)
	if err == nil && out == nil {
		err = fmt.Errorf("the function returned a nil dataset and no error")
	}
	return out, err
}

// concatOutputs joins the batches' columns; every batch must return the same columns, of the
// same kinds.
func concatOutputs(outs []batchOut) ([]*column, error) {
	if len(outs) == 0 {
		return nil, nil
	}
	names := outs[0].ds.ColumnNames()
	cols := make([]*column, len(names))
	for i, c := range outs[0].ds.cols {
		cols[i] = c.clone()
	}
	for _, o := range outs[1:] {
		if got := o.ds.ColumnNames(); !slices.Equal(got, names) {
			return nil, fmt.Errorf("rows %d to %d: the function returned the columns %v, and %v for the first rows; every call must return the same columns", o.lo, o.hi-1, got, names)
		}
		for i, c := range o.ds.cols {
			if err := appendColumn(cols[i], c); err != nil {
				return nil, fmt.Errorf("rows %d to %d: %w", o.lo, o.hi-1, err)
			}
		}
	}
	return cols, nil
}
