package optim

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// ParamReplacer is implemented by the optimizers of this package: ReplaceParams puts a new
// tensor in place of each parameter, keeping its group, learning rate and weight decay. Package
// accelerate's fully sharded data parallelism uses it to point an optimizer made over a model's
// parameters at their shards, as Accelerate switches an optimizer's parameters to FSDP2's
// sharded ones, so that each process's optimizer state covers its shard only.
type ParamReplacer interface {
	// ReplaceParams replaces every parameter p for which with returns a tensor other than p. It
	// must be called before the first Step (the state made at a step has the shape of the
	// parameter it was made for); replacements must be float32 and distinct.
	ReplaceParams(with func(p *tensors.Tensor) *tensors.Tensor) error
}

// replaceParams puts with(p) in place of each parameter p; hasState(i) reports whether parameter
// i has state already (which a replacement would not fit).
func (g *groups) replaceParams(hasState func(i int) bool, with func(p *tensors.Tensor) *tensors.Tensor) error {
	next := make(params, len(g.params))
	seen := make(map[*tensors.Tensor]int, len(g.params))
	for i, p := range g.params {
		q := with(p)
		if q == nil {
			return fmt.Errorf("optim: ReplaceParams: parameter %d %v got no replacement", i, p.Shape())
		}
		if q != p && hasState(i) {
			return fmt.Errorf("optim: ReplaceParams: parameter %d %v already has optimizer state (a Step ran); replace parameters before the first step", i, p.Shape())
		}
		if q.DType() != tensors.Float32 {
			return fmt.Errorf("optim: ReplaceParams: parameter %d's replacement has dtype %v; optimizers update float32 tensors", i, q.DType())
		}
		if j, dup := seen[q]; dup {
			return fmt.Errorf("optim: ReplaceParams: parameters %d and %d got the same replacement", j, i)
		}
		seen[q] = i
		next[i] = q
	}
	g.params = next
	return nil
}

// ReplaceParams implements ParamReplacer.
func (o *SGD) ReplaceParams(with func(p *tensors.Tensor) *tensors.Tensor) error {
	return o.replaceParams(func(i int) bool { return o.bufs[i] != nil }, with)
}

// ReplaceParams implements ParamReplacer.
func (o *Adam) ReplaceParams(with func(p *tensors.Tensor) *tensors.Tensor) error {
	return o.replaceParams(func(i int) bool { return o.steps[i] > 0 }, with)
}

// ReplaceParams implements ParamReplacer.
func (o *RMSprop) ReplaceParams(with func(p *tensors.Tensor) *tensors.Tensor) error {
	return o.replaceParams(func(i int) bool { return o.steps[i] > 0 }, with)
}

// ReplaceParams implements ParamReplacer.
func (o *Adadelta) ReplaceParams(with func(p *tensors.Tensor) *tensors.Tensor) error {
	return o.replaceParams(func(i int) bool { return o.steps[i] > 0 }, with)
}
