package accelerate

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/profiling"
	"github.com/goaccel/goaccel/tensors"
)

// firstBucketBytes is PyTorch DDP's first bucket: small, so the all-reduce
// starts early in the backward pass. The others hold Config.DDP.BucketCapMB.
const firstBucketBytes = 1 << 20

// bucket is a group of parameters whose gradients are all-reduced together.
type bucket struct {
	params  []*tensors.Tensor
	offsets []int
	size    int               // elements of every parameter together
	buf     []float32         // host bucket buffer (CPU parameters), made on first use
	flat    *tensors.Tensor   // device bucket buffer (parameters on a device), made on first use
	parts   []*tensors.Tensor // flat's view of each parameter, in its shape, made with flat
	wait    func() error      // makes later device work see flat's all-reduce
	grads   [][]float32       // each parameter's gradient storage, reduced in place
	direct  bool              // every gradient so far is plain float32 CPU storage
	pending int               // parameters whose gradient is not ready yet in this pass
	sent    bool              // handed to the all-reduce worker in this pass
}

// onDevice reports whether the bucket's parameters live on a device.
func (b *bucket) onDevice() bool { return !b.params[0].Device().IsCPU() }

// reducer averages gradients across processes during the backward pass: the
// engine reports each parameter's gradient final (OnGradReady); once a
// bucket's gradients are all final a worker goroutine all-reduces them while
// the backward pass goes on; finish waits. CPU gradients are averaged where
// they are (one coalesced collective per bucket); gradients on a device are
// copied into the bucket's flat device tensor, all-reduced there as one
// tensor (by NCCL on a stream of its own, alongside the rest of the backward
// pass; through the host when the group's backend cannot reach the device)
// and copied back. Only a CPU bucket with a missing or unusual
// gradient (not plain float32 storage) goes through the host bucket buffer.
type reducer struct {
	c       comm
	buckets []*bucket
	of      map[*tensors.Tensor]*bucket
	slot    map[*tensors.Tensor]int
	active  bool
	work    chan job
	done    chan error
	hooks   []*tensors.HookHandle // the parameters' gradient-ready hooks (FreeMemory removes them)
	// sentOrder is the order the buckets went to the worker in this pass (JoinUnevenInputs
	// shadows them in that order).
	sentOrder []*bucket
}

// job is what the all-reduce worker does next: a bucket's all-reduce, or another collective the
// backward pass asks for (SyncBatchNorm's sums), queued behind the buckets sent before it so that
// every process issues its collectives in the same order; fn's error goes to done.
type job struct {
	b    *bucket
	fn   func() error
	done chan error
}

func newReducer(a *Accelerator, params []*tensors.Tensor) *reducer {
	r := &reducer{c: a.c, of: map[*tensors.Tensor]*bucket{}, slot: map[*tensors.Tensor]int{}}
	capFloats := max(1, int(a.cfg.DDP.BucketCapMB*(1<<20))/4)
	limit := min(firstBucketBytes/4, capFloats)
	var b *bucket
	// Gradients become ready from the output side, roughly the reverse of
	// declaration order, so buckets follow that order.
	for i := len(params) - 1; i >= 0; i-- {
		p := params[i]
		if p.DType() != tensors.Float32 {
			panic(fmt.Sprintf("accelerate: Prepare: parameter %d has dtype %v; keep parameters float32 (mixed precision computes in lower precision under autocast)", i, p.DType()))
		}
		if b == nil || (b.size > 0 && b.size+p.Numel() > limit) || p.Device() != b.params[0].Device() {
			if b != nil {
				limit = capFloats
			}
			b = &bucket{}
			r.buckets = append(r.buckets, b)
		}
		r.of[p], r.slot[p] = b, len(b.params)
		b.offsets = append(b.offsets, b.size)
		b.params = append(b.params, p)
		b.size += p.Numel()
		b.grads = append(b.grads, nil)
		r.hooks = append(r.hooks, p.OnGradReady(r.ready))
	}
	return r
}

// begin arms the hooks for one backward pass.
func (r *reducer) begin() {
	r.active = true
	r.sentOrder = r.sentOrder[:0]
	r.work = make(chan job, len(r.buckets))
	r.done = make(chan error, 1)
	for _, b := range r.buckets {
		b.pending, b.sent, b.direct = len(b.params), false, true
	}
	go func(work <-chan job) {
		var err error
		for j := range work {
			if j.fn != nil {
				if err != nil {
					j.done <- err
				} else {
					j.done <- j.fn()
				}
				continue
			}
			if err != nil {
				continue
			}
			b := j.b
			switch {
			case b.direct:
				err = r.c.AllReduceCoalesced(b.grads, "mean")
			case b.flat != nil:
				b.wait, err = r.c.StartAllReduceTensor(b.flat, "mean")
			default:
				err = r.c.AllReduceCoalesced([][]float32{b.buf}, "mean")
			}
		}
		r.done <- err
	}(r.work)
}

// ready is the gradient-ready hook: note the gradient, send a full bucket.
func (r *reducer) ready(p *tensors.Tensor) {
	if !r.active {
		return
	}
	b := r.of[p]
	i := r.slot[p]
	b.grads[i] = plainGrad(p)
	b.direct = b.direct && b.grads[i] != nil
	b.pending--
	if b.pending == 0 && !b.sent {
		r.send(b)
	}
}

// send hands b to the worker, first copying its gradients into the bucket's
// buffer unless they can all be reduced in place.
func (r *reducer) send(b *bucket) {
	if !b.direct || b.pending > 0 {
		b.direct = false
		if b.onDevice() {
			b.fillFlat()
		} else {
			if b.buf == nil {
				b.buf = make([]float32, b.size)
			}
			for i, p := range b.params {
				copyGrad(b.buf[b.offsets[i]:][:p.Numel()], p)
			}
		}
	}
	b.sent = true
	r.sentOrder = append(r.sentOrder, b)
	r.work <- job{b: b}
}

// collective runs fn: in turn with the gradient all-reduces while a backward pass has them
// under way, at once otherwise.
func (r *reducer) collective(fn func() error) error {
	if r == nil || !r.active {
		return fn()
	}
	done := make(chan error, 1)
	r.work <- job{fn: fn, done: done}
	return <-done
}

// fillFlat copies the gradients into the device bucket tensor (zeros for a
// parameter without one), on the device.
func (b *bucket) fillFlat() {
	if b.flat == nil {
		b.flat = tensors.Zeros(b.size).To(b.params[0].Device())
		for i, p := range b.params {
			b.parts = append(b.parts, b.flat.Slice(0, b.offsets[i], b.offsets[i]+p.Numel()).Reshape(p.Shape()...))
		}
	}
	for i, p := range b.params {
		if g := p.GradRef(); g != nil {
			b.parts[i].CopyFrom(g)
		} else {
			b.parts[i].Fill(0)
		}
	}
}

// plainGrad returns p's gradient storage when it is plain float32 on the CPU, nil otherwise.
func plainGrad(p *tensors.Tensor) []float32 {
	g := p.GradRef()
	if g == nil || g.DType() != tensors.Float32 || !g.Device().IsCPU() || g.Contiguous() != g {
		return nil
	}
	return g.Data32()[:p.Numel()]
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
			r.send(b)
		}
	}
	close(r.work)
	// A profile shows how long the backward pass waited for the all-reduces to finish.
	span := profiling.Begin(profiling.CatWait, "wait gradient all-reduce", profiling.Args{})
	err := <-r.done
	span.End()
	if err != nil {
		return fmt.Errorf("gradient all-reduce: %w", err)
	}
	for _, b := range r.buckets {
		if b.wait != nil {
			err := b.wait()
			b.wait = nil
			if err != nil {
				return fmt.Errorf("gradient all-reduce: %w", err)
			}
		}
		if !b.direct {
			for i, p := range b.params {
				if b.flat != nil {
					setGradFrom(p, b.parts[i])
				} else {
					setGrad(p, b.buf[b.offsets[i]:][:p.Numel()])
				}
			}
		}
		clear(b.grads)
	}
	return nil
}

// copyGrad copies the CPU parameter p's gradient into dst.
func copyGrad(dst []float32, p *tensors.Tensor) {
	g := p.GradRef()
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

// setGrad overwrites the CPU parameter p's gradient with vals, in place when it can.
func setGrad(p *tensors.Tensor, vals []float32) {
	if g := p.GradRef(); g != nil && g.DType() == tensors.Float32 && g.Contiguous() == g {
		copy(g.Data32(), vals)
		return
	}
	p.SetGrad(tensors.New(vals, p.Shape()...))
}

// setGradFrom overwrites p's gradient with the values of src (p's view of a
// bucket tensor on p's device), in place when p has a gradient.
func setGradFrom(p *tensors.Tensor, src *tensors.Tensor) {
	if g := p.GradRef(); g != nil {
		g.CopyFrom(src)
		return
	}
	p.SetGrad(src.Clone())
}
