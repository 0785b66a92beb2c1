package accelerate

import (
	"time"

	"github.com/goaccel/goaccel/tensors"
)

// comm is what the Accelerator needs from a process group. The dist adapter
// implements it for several processes; solo implements it for one.
type comm interface {
	Rank() int
	Size() int
	LocalRank() int
	LocalSize() int
	// AllReduce combines buf across processes in place; op is "sum" or "max".
	AllReduce(buf []float32, op string) error
	// AllReduceCoalesced combines several buffers in place as one collective
	// (the AllReduce of their concatenation); op is "sum", "mean" or "max".
	AllReduceCoalesced(bufs [][]float32, op string) error
	// StartAllReduceTensor combines the contiguous float32 tensor t across
	// processes in place, on its device (op "sum", "mean" or "max"); later
	// work sees the result after wait (with NCCL the collective runs
	// alongside the work queued before then).
	StartAllReduceTensor(t *tensors.Tensor, op string) (wait func() error, err error)
	// AllGatherV concatenates every process's buf (lengths may differ) in rank order.
	AllGatherV(buf []float32) ([]float32, error)
	// AllGather concatenates every process's send, all of one length, into recv in rank order.
	AllGather(send, recv []float32) error
	// ReduceScatter combines send (Size() equal blocks, one per rank) across processes and
	// leaves rank r's block of the result in recv; op is "sum" or "mean".
	ReduceScatter(send, recv []float32, op string) error
	// Broadcast copies root's buf into every process's buf.
	Broadcast(buf []float32, root int) error
	// BroadcastBytes returns root's b on every process.
	BroadcastBytes(b []byte, root int) ([]byte, error)
	// AllGatherBytes returns every process's b, in rank order.
	AllGatherBytes(b []byte) ([][]byte, error)
	Barrier() error
	// Split makes the sub-groups of the processes that pass the same color, numbered by key
	// (dist.Group.Split); every process calls it.
	Split(color, key int) (comm, error)
	// SetTimeout bounds every later collective (InitProcessGroupKwargs.timeout).
	SetTimeout(d time.Duration)
	Close() error
}

// solo is the process group of a single process: every collective is the identity.
type solo struct{}

func (solo) Rank() int                                    { return 0 }
func (solo) Size() int                                    { return 1 }
func (solo) LocalRank() int                               { return 0 }
func (solo) LocalSize() int                               { return 1 }
func (solo) AllReduce([]float32, string) error            { return nil }
func (solo) AllReduceCoalesced([][]float32, string) error { return nil }
func (solo) StartAllReduceTensor(*tensors.Tensor, string) (func() error, error) {
	return func() error { return nil }, nil
}
func (solo) AllGatherV(b []float32) ([]float32, error)          { return append([]float32(nil), b...), nil }
func (solo) AllGather(send, recv []float32) error               { copy(recv, send); return nil }
func (solo) ReduceScatter(send, recv []float32, _ string) error { copy(recv, send); return nil }
func (solo) Broadcast([]float32, int) error                     { return nil }
func (solo) BroadcastBytes(b []byte, _ int) ([]byte, error)     { return b, nil }
func (solo) AllGatherBytes(b []byte) ([][]byte, error)          { return [][]byte{b}, nil }
func (solo) Barrier() error                                     { return nil }
func (solo) Split(int, int) (comm, error)                       { return solo{}, nil }
func (solo) SetTimeout(time.Duration)                           {}
func (solo) Close() error                                       { return nil }
