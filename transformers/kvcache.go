package transformers

import (
	"fmt"
	"slices"

	"github.com/goaccel/goaccel/tensors"
)

// KVCache holds the keys and values of the tokens a decoder has already seen (transformers'
// past_key_values, a DynamicCache allocated once): per layer, a keys and a values tensor
// [batch, capacity, key/value heads, head size] that each forward pass given the cache as
// Inputs.PastKeyValues fills further, so that the next token attends over the cache instead of
// recomputing the whole prefix. Generate makes one; code that runs a decoder token by token
// makes one with the model's NewKVCache.
//
// The cache is for inference: what it stores carries no gradient, so a forward pass given a
// cache must run under tensors.NoGrad (Generate does).
type KVCache struct {
	batch, capacity int
	keys, values    []*tensors.Tensor // per layer, allocated at the first Update
	length          []int             // per layer, the tokens written
}

// NewKVCache returns an empty cache for a model of layers layers and batch rows of up to
// capacity tokens each (the prompt and what will be generated). The tensors are allocated at
// the first Update of each layer, in the type and on the device of the keys written.
func NewKVCache(layers, batch, capacity int) *KVCache {
	if layers < 1 || batch < 1 || capacity < 1 {
		panic(fmt.Sprintf("transformers: NewKVCache: layers %d, batch %d and capacity %d must be positive", layers, batch, capacity))
	}
	return &KVCache{batch: batch, capacity: capacity, keys: make([]*tensors.Tensor, layers),
		values: make([]*tensors.Tensor, layers), length: make([]int, layers)}
}

// Len is the number of tokens the cache holds (the first layer's; transformers'
// get_seq_length).
func (c *KVCache) Len() int { return c.length[0] }

// Capacity is the most tokens a row can hold.
func (c *KVCache) Capacity() int { return c.capacity }

// Batch is the number of rows.
func (c *KVCache) Batch() int { return c.batch }

// Layers is the number of layers the cache has room for.
func (c *KVCache) Layers() int { return len(c.keys) }

// Crop forgets the tokens after the first n: the next forward pass continues from n, e.g. to
// reuse a prompt's keys and values for another continuation. A negative n drops that many
// tokens from the end (transformers' DynamicCache.crop, which takes only that form).
func (c *KVCache) Crop(n int) {
	if n < 0 {
		n += c.Len()
	}
	for i := range c.length {
		c.length[i] = min(c.length[i], max(n, 0))
	}
}

// Update appends the keys and values k, v [batch, T, key/value heads, head size] of T new
// tokens to layer and returns views of all the layer's keys and values so far
// [batch, Len+T, key/value heads, head size]. The decoder families call it from their
// attention layers; it returns an error naming what does not fit (a full cache, another batch
// or head shape, gradients being recorded).
func (c *KVCache) Update(layer int, k, v *tensors.Tensor) (keys, values *tensors.Tensor, err error) {
	if layer < 0 || layer >= len(c.keys) {
		return nil, nil, fmt.Errorf("KVCache: layer %d of a cache of %d layers", layer, len(c.keys))
	}
	if k.Dim() != 4 || !slices.Equal(k.Shape(), v.Shape()) {
		return nil, nil, fmt.Errorf("KVCache: keys %v and values %v must both be [batch, tokens, heads, head size]", k.Shape(), v.Shape())
	}
	if tensors.IsGradEnabled() && (k.RequiresGrad() || v.RequiresGrad()) {
		return nil, nil, fmt.Errorf("KVCache: the cache keeps keys and values without their gradient: run the model under tensors.NoGrad when it is given Inputs.PastKeyValues (Generate does)")
	}
	b, t := k.Size(0), k.Size(1)
	if b != c.batch {
		return nil, nil, fmt.Errorf("KVCache: a batch of %d rows given to a cache of %d", b, c.batch)
	}
	n := c.length[layer]
	if n+t > c.capacity {
		return nil, nil, fmt.Errorf("KVCache: %d tokens held and %d new ones exceed the capacity %d (make the cache for the prompt and every token to generate)", n, t, c.capacity)
	}
	if c.keys[layer] == nil {
		shape := []int{b, c.capacity, k.Size(2), k.Size(3)}
		c.keys[layer] = tensors.Zeros(shape...).AsType(k.DType()).To(k.Device())
		c.values[layer] = tensors.Zeros(shape...).AsType(k.DType()).To(k.Device())
	}
	if want := c.keys[layer].Shape(); k.Size(2) != want[2] || k.Size(3) != want[3] {
		return nil, nil, fmt.Errorf("KVCache: layer %d holds %d heads of %d, given %d of %d", layer, want[2], want[3], k.Size(2), k.Size(3))
	}
	c.keys[layer].Slice(1, n, n+t).CopyFrom(k)
	c.values[layer].Slice(1, n, n+t).CopyFrom(v)
	c.length[layer] = n + t
	return c.keys[layer].Slice(1, 0, n+t), c.values[layer].Slice(1, 0, n+t), nil
}
