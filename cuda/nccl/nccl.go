package nccl

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/goaccel/goaccel/cuda/internal/device"
	ncclapi "github.com/goaccel/goaccel/cuda/internal/nccl"
	"github.com/goaccel/goaccel/dist"
	"github.com/goaccel/goaccel/tensors"
)

func init() {
	dist.RegisterBackend("nccl", func(ctx context.Context, rv *dist.Rendezvous) (dist.Backend, error) {
		return open(ctx, rv, dist.CPUBackend)
	})
}

// Available reports whether NCCL can be used on this machine for n processes: the GPUs (one per
// process) and the library are there. The error says what is missing.
func Available(localProcesses int) error {
	if n := device.Count(); n == 0 {
		return fmt.Errorf("no usable GPU: %w", device.Err())
	} else if localProcesses > n {
		return fmt.Errorf("%d processes on this machine share %d GPU(s); NCCL needs one GPU per process", localProcesses, n)
	}
	_, err := library()
	return err
}

var (
	libOnce sync.Once
	lib     *ncclapi.Library
	libErr  error
)

func library() (*ncclapi.Library, error) {
	libOnce.Do(func() { lib, libErr = ncclapi.Load() })
	return lib, libErr
}

// idKey is the rendezvous store key of the unique id.
const idKey = "nccl/unique_id"

// exchangeID returns the communicator's unique id: rank 0 creates it and stores it, the others
// wait for it in the store.
func exchangeID(ctx context.Context, st dist.Store, rank int, create func() (ncclapi.UniqueID, error)) (ncclapi.UniqueID, error) {
	var id ncclapi.UniqueID
	if rank == 0 {
		var err error
		if id, err = create(); err != nil {
			return id, err
		}
		return id, st.Set(ctx, idKey, id.Internal[:])
	}
	b, err := st.Get(ctx, idKey)
	if err != nil {
		return id, fmt.Errorf("wait for rank 0's NCCL id: %w", err)
	}
	if len(b) != len(id.Internal) {
		return id, fmt.Errorf("the NCCL id in the store has %d bytes, want %d", len(b), len(id.Internal))
	}
	copy(id.Internal[:], b)
	return id, nil
}

// backend is one rank's NCCL communicator on its GPU, beside the CPU backend.
type backend struct {
	dist.Backend // host buffers, objects, barriers
	dev          tensors.Device
	d            *device.Device
	comm         *ncclapi.Comm
	side         uintptr // the stream the gradient all-reduces run on

	stop    chan struct{}
	once    sync.Once
	mu      sync.Mutex
	aborted bool
}

func open(ctx context.Context, rv *dist.Rendezvous, host func(context.Context, *dist.Rendezvous) (dist.Backend, error)) (dist.Backend, error) {
	cfg := rv.Config
	if err := Available(cfg.LocalWorldSize); err != nil {
		return nil, fmt.Errorf("nccl: %w (the cpu backend moves device tensors through the host)", err)
	}
	l, _ := library()
	d, err := device.Open(cfg.LocalRank)
	if err != nil {
		return nil, fmt.Errorf("nccl: %w", err)
	}
	id, err := exchangeID(ctx, rv.Store, cfg.Rank, l.UniqueID)
	if err != nil {
		return nil, fmt.Errorf("nccl: %w", err)
	}
	// ncclCommInitRank blocks until every rank has joined: wait for it, the context or a lost peer.
	type result struct {
		c   *ncclapi.Comm
		err error
	}
	done := make(chan result, 1)
	go func() {
		var c *ncclapi.Comm
		err := d.Do(func() (err error) { c, err = l.InitRank(cfg.WorldSize, id, cfg.Rank); return err })
		done <- result{c, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return nil, fmt.Errorf("nccl: join the communicator: %w", ctx.Err())
	case <-rv.Lost:
		return nil, fmt.Errorf("nccl: join the communicator: %w", rv.PeerErr())
	}
	if r.err != nil {
		return nil, fmt.Errorf("nccl: join the communicator as rank %d of %d on cuda:%d: %w", cfg.Rank, cfg.WorldSize, cfg.LocalRank, r.err)
	}
	b := &backend{dev: tensors.CUDA(cfg.LocalRank), d: d, comm: r.c, stop: make(chan struct{})}
	if err := d.Do(func() (err error) { b.side, err = d.Driver().StreamCreate(); return err }); err != nil {
		b.abort()
		return nil, fmt.Errorf("nccl: %w", err)
	}
	if b.Backend, err = host(ctx, rv); err != nil {
		b.abort()
		return nil, err
	}
	go func() {
		select {
		case <-rv.Lost:
			b.abort()
		case <-b.stop:
		}
	}()
	return b, nil
}

// abort tears the communicator down at once, so NCCL work waiting for a lost peer ends.
func (b *backend) abort() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.aborted {
		return
	}
	b.aborted = true
	_ = b.comm.Abort()
}

// Transport implements the optional transport name of dist backends.
func (b *backend) Transport() string { return "nccl" }

// Device implements dist.DeviceBackend.
func (b *backend) Device() tensors.Device { return b.dev }

func (b *backend) check(ctx context.Context) error {
	b.mu.Lock()
	aborted := b.aborted
	b.mu.Unlock()
	if aborted {
		return fmt.Errorf("nccl: the communicator was aborted after a peer was lost: %w", dist.ErrPeerLost)
	}
	return ctx.Err()
}

func dataType(dt tensors.DType) (ncclapi.DataType, error) {
	switch dt {
	case tensors.Float32:
		return ncclapi.Float32, nil
	case tensors.Float64:
		return ncclapi.Float64, nil
	case tensors.Int64:
		return ncclapi.Int64, nil
	case tensors.BFloat16:
		return ncclapi.BFloat16, nil
	case tensors.Float16:
		return ncclapi.Float16, nil
	}
	return 0, fmt.Errorf("nccl: no NCCL type for %s", dt)
}

func redOp(op dist.Op) (ncclapi.RedOp, error) {
	switch op {
	case dist.Sum:
		return ncclapi.Sum, nil
	case dist.Mean:
		return ncclapi.Avg, nil
	case dist.Max:
		return ncclapi.Max, nil
	case dist.Min:
		return ncclapi.Min, nil
	}
	return 0, fmt.Errorf("nccl: unknown reduction %v", op)
}

// StartAllReduce implements dist.DeviceBackend: the side stream waits for the work queued on t so
// far, runs the all-reduce, and wait makes the device's stream wait for it.
func (b *backend) StartAllReduce(ctx context.Context, t *tensors.Tensor, op dist.Op) (func() error, error) {
	dt, err := dataType(t.DType())
	if err != nil {
		return nil, err
	}
	ro, err := redOp(op)
	if err != nil {
		return nil, err
	}
	return b.onSide(ctx, "all-reduce", []*tensors.Tensor{t}, func(side uintptr) error {
		p := t.DataPtr()
		return b.comm.AllReduce(p, p, t.Numel(), dt, ro, side)
	})
}

// StartAllGather implements dist.DeviceBackend: the all-gather of send into recv on the side
// stream, after the work queued so far; wait makes the device's stream wait for it.
func (b *backend) StartAllGather(ctx context.Context, send, recv *tensors.Tensor) (func() error, error) {
	dt, err := dataType(send.DType())
	if err != nil {
		return nil, err
	}
	return b.onSide(ctx, "all-gather", []*tensors.Tensor{send, recv}, func(side uintptr) error {
		return b.comm.AllGather(send.DataPtr(), recv.DataPtr(), send.Numel(), dt, side)
	})
}

// onSide queues run on the side stream once the work queued on the device's stream so far is
// done, and returns the function that makes the device's stream wait for it. ts are the tensors
// run reads and writes: their blocks are not reused by the device's stream before the side
// stream is done with them, and they stay alive until the caller waits.
func (b *backend) onSide(ctx context.Context, what string, ts []*tensors.Tensor, run func(side uintptr) error) (func() error, error) {
	if err := b.check(ctx); err != nil {
		return nil, err
	}
	drv := b.d.Driver()
	var done uintptr
	err := b.d.Do(func() error {
		ready, err := drv.EventCreate(false)
		if err != nil {
			return err
		}
		defer drv.EventDestroy(ready)
		if err := drv.EventRecord(ready, b.d.Stream()); err != nil {
			return err
		}
		if err := drv.StreamWaitEvent(b.side, ready); err != nil {
			return err
		}
		if err := run(b.side); err != nil {
			return err
		}
		// Until the side stream is done with them, the tensors' blocks must not be reused by
		// the device's stream, whatever happens to the tensors.
		for _, t := range ts {
			if err := b.d.RecordUse(t.DataPtr(), b.side); err != nil {
				return err
			}
		}
		if done, err = drv.EventCreate(false); err != nil {
			return err
		}
		return drv.EventRecord(done, b.side)
	})
	if err != nil {
		return nil, fmt.Errorf("nccl: %s: %w", what, err)
	}
	return func() error {
		err := b.d.Do(func() error {
			defer drv.EventDestroy(done)
			return drv.StreamWaitEvent(b.d.Stream(), done)
		})
		runtime.KeepAlive(ts) // the tensors live while the collective may run: until the caller waits
		if err != nil {
			return fmt.Errorf("nccl: %s: %w", what, err)
		}
		return b.asyncError()
	}, nil
}

// asyncError reports a communicator failure NCCL found in the background.
func (b *backend) asyncError() error {
	if err := b.comm.AsyncError(); err != nil {
		return fmt.Errorf("nccl: %w", err)
	}
	return nil
}

// onStream queues one collective on the device's stream.
func (b *backend) onStream(ctx context.Context, what string, fn func(stream uintptr) error) error {
	if err := b.check(ctx); err != nil {
		return err
	}
	if err := b.d.Do(func() error { return fn(b.d.Stream()) }); err != nil {
		return fmt.Errorf("nccl: %s: %w", what, err)
	}
	return b.asyncError()
}

// BroadcastTensor implements dist.DeviceBackend.
func (b *backend) BroadcastTensor(ctx context.Context, t *tensors.Tensor, root int) error {
	dt, err := dataType(t.DType())
	if err != nil {
		return err
	}
	return b.onStream(ctx, "broadcast", func(s uintptr) error {
		return b.comm.Broadcast(t.DataPtr(), t.DataPtr(), t.Numel(), dt, root, s)
	})
}

// AllGatherTensor implements dist.DeviceBackend.
func (b *backend) AllGatherTensor(ctx context.Context, send, recv *tensors.Tensor) error {
	dt, err := dataType(send.DType())
	if err != nil {
		return err
	}
	return b.onStream(ctx, "all-gather", func(s uintptr) error {
		return b.comm.AllGather(send.DataPtr(), recv.DataPtr(), send.Numel(), dt, s)
	})
}

// ReduceScatterTensor implements dist.DeviceBackend.
func (b *backend) ReduceScatterTensor(ctx context.Context, send, recv *tensors.Tensor, op dist.Op) error {
	dt, err := dataType(send.DType())
	if err != nil {
		return err
	}
	ro, err := redOp(op)
	if err != nil {
		return err
	}
	return b.onStream(ctx, "reduce-scatter", func(s uintptr) error {
		return b.comm.ReduceScatter(send.DataPtr(), recv.DataPtr(), recv.Numel(), dt, ro, s)
	})
}

// Close implements dist.Backend: it destroys the communicator (aborts it when a peer was lost)
// and closes the CPU backend.
func (b *backend) Close() error {
	b.once.Do(func() { close(b.stop) })
	b.mu.Lock()
	aborted := b.aborted
	b.aborted = true
	b.mu.Unlock()
	var errs []error
	if !aborted {
		errs = append(errs, b.d.Do(func() error { return b.comm.Destroy() }))
	}
	if b.Backend != nil {
		errs = append(errs, b.Backend.Close())
	}
	return errors.Join(errs...)
}

var _ dist.DeviceBackend = (*backend)(nil)
