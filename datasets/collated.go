package datasets

import (
	"fmt"

	"github.com/goaccel/goaccel/data"
	"github.com/goaccel/goaccel/tensors"
)

// Collated serves a tokenized dataset to a data.Loader through a padding collator (the
// collate_fn of a PyTorch DataLoader): the Loader's Named returns each batch's tensors
// (input_ids, attention_mask, token_type_ids, labels…), its Batch returns input_ids and labels.
// It works with the Loader's shuffling, length grouping (LoaderConfig.GroupByLength uses
// SampleLengths) and prefetching, and with accelerate's Prepare (sharding, even batches,
// skipping batches on resume).
type Collated struct {
	ds *Dataset
	c  DataCollatorWithPadding
	p  *collatable
}

// WithCollator checks that ds can be collated by c (see DataCollatorWithPadding) and returns it
// as a data.Dataset:
//
//	train, err := datasets.WithCollator(tokenized, collator)
//	if err != nil { … }
//	loader := data.NewLoader(train, data.LoaderConfig{BatchSize: 16, Shuffle: true})
//	acc.Prepare(&model, &opt, &loader)
//	for loader.Next() {
//		b := loader.Named()
//		out, err := model.Run(transformers.Inputs{InputIDs: b.Get("input_ids"), AttentionMask: b.Get("attention_mask"),
//			TokenTypeIDs: b.Get("token_type_ids"), Labels: b.Get("labels")})
//		…
//	}
func WithCollator(ds *Dataset, c DataCollatorWithPadding) (*Collated, error) {
	p, err := c.prepare(ds)
	if err != nil {
		return nil, err
	}
	return &Collated{ds: ds, c: c, p: p}, nil
}

// Len returns the number of rows.
func (d *Collated) Len() int { return d.ds.Len() }

// Get returns row i's input_ids [T] (unpadded) and its label (a scalar; nil without labels).
func (d *Collated) Get(i int) (x, y *tensors.Tensor) {
	d.checkIndex(i)
	ids := d.p.tokens["input_ids"][i]
	x = tensors.FromInt64(ids, len(ids))
	if d.p.labels != nil {
		y = scalarsTensor(d.p.labels.take([]int{i})).Squeeze(0)
	}
	return x, y
}

// GetBatch returns the padded input_ids [B, T] and labels [B] of the rows at indices (nil
// without labels): the collated batch seen as (x, y).
func (d *Collated) GetBatch(indices []int) (x, y *tensors.Tensor) {
	b := d.GetNamedBatch(indices)
	return b.Get("input_ids"), b.Get("labels")
}

// GetNamedBatch pads the rows at indices into one batch (data.NamedBatchGetter).
func (d *Collated) GetNamedBatch(indices []int) *data.Batch {
	for _, i := range indices {
		d.checkIndex(i)
	}
	return d.c.collate(d.p, indices)
}

// SampleLengths returns the number of tokens of each row (data.SampleLengths), for batches
// grouped by length.
func (d *Collated) SampleLengths() []int {
	ids := d.p.tokens["input_ids"]
	out := make([]int, len(ids))
	for i, row := range ids {
		out[i] = len(row)
	}
	return out
}

// Dataset returns the underlying dataset.
func (d *Collated) Dataset() *Dataset { return d.ds }

func (d *Collated) checkIndex(i int) {
	if i < 0 || i >= d.ds.Len() {
		panic(fmt.Sprintf("datasets: Collated: index %d out of range for %d rows", i, d.ds.Len()))
	}
}
