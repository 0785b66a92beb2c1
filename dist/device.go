package dist

import (
	"context"
	"fmt"
	"github.com/goaccel/goaccel/internal/profiling"

	"github.com/goaccel/goaccel/tensors"
)

// DeviceBackend is implemented by backends that run collectives on device memory themselves
// (NCCL, package cuda/nccl): Group's tensor collectives hand them the tensors of their device
// directly, on the device's stream, instead of moving them through the host. Everything else
// (host buffers, objects, barriers) goes through the backend's Backend methods.
type DeviceBackend interface {
	Backend
	// Device is the device whose tensors the backend takes.
	Device() tensors.Device
	// StartAllReduce queues t = op over ranks of t (contiguous, in place; Mean averages) and
	// returns a function after which later work on the device sees the result. Work queued in
	// between may run alongside the collective.
	StartAllReduce(ctx context.Context, t *tensors.Tensor, op Op) (wait func() error, err error)
	// Broadcast, AllGather and ReduceScatter are queued on the device's stream: later work on
	// the device sees their results. AllGather fills recv (size × send's elements, rank-major);
	// ReduceScatter leaves chunk rank of the reduction of send in recv.
	// StartAllGather queues AllGatherTensor's work alongside the device's stream, as
	// StartAllReduce does: work queued before wait may run while it runs.
	StartAllGather(ctx context.Context, send, recv *tensors.Tensor) (wait func() error, err error)
	BroadcastTensor(ctx context.Context, t *tensors.Tensor, root int) error
	AllGatherTensor(ctx context.Context, send, recv *tensors.Tensor) error
	ReduceScatterTensor(ctx context.Context, send, recv *tensors.Tensor, op Op) error
}

// CPUBackend opens the CPU backend (shared memory and TCP) over rv: device backends keep it for
// host buffers, objects and barriers.
func CPUBackend(ctx context.Context, rv *Rendezvous) (Backend, error) { return openCPU(ctx, rv) }

// TakesDevice reports whether the group's tensor collectives run on d's memory themselves
// (a DeviceBackend of that device, as NCCL on its GPU) rather than through host copies.
func (g *Group) TakesDevice(d tensors.Device) bool {
	db, ok := g.backend.(DeviceBackend)
	return ok && g.notMember == nil && db.Device() == d
}

// deviceFor returns the group's device backend when it takes every tensor given.
func (g *Group) deviceFor(ts ...*tensors.Tensor) (DeviceBackend, bool) {
	db, ok := g.backend.(DeviceBackend)
	if !ok {
		return nil, false
	}
	for _, t := range ts {
		if t.Device() != db.Device() || !t.IsContiguous() {
			return nil, false
		}
	}
	return db, true
}

// StartAllReduceTensor queues the all-reduce of t in place and returns a function that makes
// later work see the result. With a device backend (NCCL) the collective runs on its own stream
// alongside the work queued before wait (the gradient buckets overlap the backward pass); other
// backends finish before returning.
func (g *Group) StartAllReduceTensor(ctx context.Context, t *tensors.Tensor, op Op) (wait func() error, err error) {
	if err := checkTensor("all-reduce", t); err != nil {
		return nil, err
	}
	db, ok := g.deviceFor(t)
	if !ok {
		return func() error { return nil }, g.AllReduceTensor(ctx, t, op)
	}
	n := t.Numel() * 4
	err = g.runBytes(ctx, "all-reduce", n, func(ctx context.Context) error {
		wait, err = db.StartAllReduce(ctx, t, op)
		return err
	})
	if inner := wait; err == nil && inner != nil && profiling.Active() != nil {
		// The caller's wait for the device's all-reduce shows as a span of its own.
		wait = func() error {
			defer profiling.Begin(profiling.CatWait, "wait all-reduce", profiling.Args{Bytes: int64(n)}).End()
			return inner()
		}
	}
	return wait, err
}

// AllGatherIntoTensor fills recv (Size() × send's elements, the same shape on every rank) with
// every rank's send in rank order, as torch.distributed.all_gather_into_tensor: on device memory
// when the backend runs collectives there (queued on the device's stream: later work sees the
// result), through the host otherwise (float32).
func (g *Group) AllGatherIntoTensor(ctx context.Context, send, recv *tensors.Tensor) error {
	for _, t := range []*tensors.Tensor{send, recv} {
		if t == nil || !t.IsContiguous() {
			return fmt.Errorf("dist: all-gather: send and recv must be contiguous tensors")
		}
	}
	if recv.Numel() != send.Numel()*g.Size() || send.DType() != recv.DType() {
		return fmt.Errorf("dist: all-gather: send has %d %s elements, recv %d %s; recv needs %d × send's", send.Numel(), send.DType(), recv.Numel(), recv.DType(), g.Size())
	}
	if db, ok := g.deviceFor(send, recv); ok {
		// The device's collectives take any dtype the device has (bfloat16 included).
		return g.run(ctx, "all-gather", func(ctx context.Context) error { return db.AllGatherTensor(ctx, send, recv) })
	}
	if send.DType() != tensors.Float32 {
		return fmt.Errorf("dist: all-gather: dtype %s through the host; use float32 (AsType)", send.DType())
	}
	sh, _ := onHost(send)
	rh, done := onHost(recv)
	if err := g.AllGather(ctx, sh.Data32(), rh.Data32()); err != nil {
		return err
	}
	done()
	return nil
}

// StartAllGatherIntoTensor is AllGatherIntoTensor started alongside the work queued after it:
// with a device backend (NCCL) the collective runs on its own stream and wait makes later work
// on the device see recv (prefetching the next parameters while the current ones compute);
// other backends finish before returning.
func (g *Group) StartAllGatherIntoTensor(ctx context.Context, send, recv *tensors.Tensor) (wait func() error, err error) {
	db, ok := g.deviceFor(send, recv)
	if !ok || !send.IsContiguous() || !recv.IsContiguous() || recv.Numel() != send.Numel()*g.Size() || send.DType() != recv.DType() {
		return func() error { return nil }, g.AllGatherIntoTensor(ctx, send, recv)
	}
	err = g.run(ctx, "all-gather", func(ctx context.Context) error {
		wait, err = db.StartAllGather(ctx, send, recv)
		return err
	})
	return wait, err
}

// ReduceScatterTensor reduces send (Size() × recv's elements, the same shape on every rank)
// across ranks with op and leaves chunk Rank() in recv.
func (g *Group) ReduceScatterTensor(ctx context.Context, send, recv *tensors.Tensor, op Op) error {
	for _, t := range []*tensors.Tensor{send, recv} {
		if err := checkTensor("reduce-scatter", t); err != nil {
			return err
		}
	}
	if send.Numel() != recv.Numel()*g.Size() || send.DType() != recv.DType() {
		return fmt.Errorf("dist: reduce-scatter: send has %d %s elements, recv %d %s; send needs %d × recv's", send.Numel(), send.DType(), recv.Numel(), recv.DType(), g.Size())
	}
	if db, ok := g.deviceFor(send, recv); ok {
		return g.run(ctx, "reduce-scatter", func(ctx context.Context) error { return db.ReduceScatterTensor(ctx, send, recv, op) })
	}
	if send.DType() != tensors.Float32 {
		return fmt.Errorf("dist: reduce-scatter: dtype %s through the host; use float32", send.DType())
	}
	sh, _ := onHost(send)
	rh, done := onHost(recv)
	if err := g.ReduceScatter(ctx, sh.Data32(), rh.Data32(), op); err != nil {
		return err
	}
	done()
	return nil
}
