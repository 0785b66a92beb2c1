package accelerate

import (
	"fmt"

	"github.com/goaccel/goaccel/tensors"
)

// Bucket sizes of PyTorch DDP: a small first bucket so the all-reduce starts
// early in the backward pass, then about 25 MB.
const (
	firstBucketBytes = 1 << 20
	bucketBytes      = 25 << 20
)

// bucket is a group of parameters whose gradients are all-reduced together.
type bucket struct {
	params  []*tensors.Tensor
	offsets []int
	buf     []float32
	pending int  // parameters whose gradient is not ready yet in this pass
	sent    bool // handed to the all-reduce worker in this pass
}

// reducer averages gradients across processes during the backward pass: each
// parameter's gradient is copied into its bucket when the engine reports it
// final (OnGradReady); a full bucket is all-reduced by a worker goroutine
// while the backward pass goes on; finish waits and writes the averages back.
type reducer struct {
	c       comm
	buckets []*bucket
	of      map[*tensors.Tensor]*bucket
	slot    map[*tensors.Tensor]int
	active  bool
	work    chan *bucket
	done    chan error
}

func newReducer(a *Accelerator, params []*tensors.Tensor) *reducer {
	r := &reducer{c: a.c, of: map[*tensors.Tensor]*bucket{}, slot: map[*tensors.Tensor]int{}}
	limit := firstBucketBytes / 4
	var b *bucket
	// Gradients become ready from the output side, roughly the reverse of
	// declaration order, so buckets follow that order.
	for i := len(params) - 1; i >= 0; i-- {
		p := params[i]
		if p.DType() != tensors.Float32 {
			panic(fmt.Sprintf("accelerate: Prepare: parameter %d has dtype %v; keep parameters float32 (mixed precision computes in lower precision under autocast)", i, p.DType()))
		}
		if b == nil || (len(b.buf) > 0 && len(b.buf)+p.Numel() > limit) {
			if b != nil {
				limit = bucketBytes / 4
			}
			b = &bucket{}
			r.buckets = append(r.buckets, b)
		}
		r.of[p], r.slot[p] = b, len(b.params)
		b.offsets = append(b.offsets, len(b.buf))
		b.params = append(b.params, p)
		b.buf = append(b.buf, make([]float32, p.Numel())...)
		p.OnGradReady(r.ready)
	}
	return r
}

// begin arms the hooks for one backward pass.
func (r *reducer) begin() {
	r.active = true
	r.work = make(chan *bucket, len(r.buckets))
	r.done = make(chan error, 1)
	for _, b := range r.buckets {
		b.pending, b.sent = len(b.params), false
	}
	go func(work <-chan *bucket) {
		var err error
		for b := range work {
			if err != nil {
				continue
			}
			err = r.c.AllReduce(b.buf, "sum")
		}
		r.done <- err
	}(r.work)
}

// ready is the gradient-ready hook: copy the gradient, send a full bucket.
func (r *reducer) ready(p *tensors.Tensor) {
	if !r.active {
		return
	}
	b := r.of[p]
	copyGrad(b.buf[b.offsets[r.slot[p]]:][:p.Numel()], p)
	b.pending--
	if b.pending == 0 && !b.sent {
		b.sent = true
		r.work <- b
	}
}

// finish sends the buckets whose parameters got no gradient this pass (with
// zeros for those), waits for every all-reduce and writes the averages back.
func (r *reducer) finish() error {
	if !r.active {
		return nil
	}
	r.active = false
	for _, b := range r.buckets {
		if !b.sent {
			for i, p := range b.params {
				copyGrad(b.buf[b.offsets[i]:][:p.Numel()], p)
			}
			b.sent = true
			r.work <- b
		}
	}
	close(r.work)
	if err := <-r.done; err != nil {
		return fmt.Errorf("gradient all-reduce: %w", err)
	}
	scale := 1 / float32(r.c.Size()) // the sum becomes the average as it is written back
	for _, b := range r.buckets {
		for i, p := range b.params {
			setGradScaled(p, b.buf[b.offsets[i]:][:p.Numel()], scale)
		}
	}
	return nil
}

// copyGrad copies p's gradient into dst.
func copyGrad(dst []float32, p *tensors.Tensor) {
	g := p.Grad()
	if g == nil {
		clear(dst)
		return
	}
	if g.DType() == tensors.Float32 {
		if c := g.Contiguous(); c == g {
			copy(dst, g.Data32())
			return
		}
	}
	copy(dst, g.Float32s())
}

// setGradScaled overwrites p's gradient with vals×scale (each product rounded
// to float32), in place when it can: one pass instead of scaling, then copying.
func setGradScaled(p *tensors.Tensor, vals []float32, scale float32) {
	if g := p.Grad(); g != nil && g.DType() == tensors.Float32 && g.Contiguous() == g {
		dst := g.Data32()[:len(vals)]
		for i, v := range vals {
			dst[i] = v * scale
		}
		return
	}
	for i := range vals {
		vals[i] *= scale
	}
	p.SetGrad(tensors.New(vals, p.Shape()...))
}

// setGrad overwrites p's gradient with vals, in place when it can.
func setGrad(p *tensors.Tensor, vals []float32) {
	if g := p.Grad(); g != nil && g.DType() == tensors.Float32 && g.Contiguous() == g {
		copy(g.Data32(), vals)
		return
	}
	p.SetGrad(tensors.New(vals, p.Shape()...))
}
