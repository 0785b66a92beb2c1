package accelerate

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/goaccel/goaccel/dist"
	"github.com/goaccel/goaccel/internal/host"
	"github.com/goaccel/goaccel/tensors"
)

// The process group is shared by every Accelerator of the process, as
// Accelerate's AcceleratorState is: a process joins its group once, and
// leaves it when the last Accelerator using it calls EndTraining.
var (
	groupMu    sync.Mutex
	groupComm  comm
	groupUsers int
)

// joinGroup joins the group the environment describes (one process: solo):
// with NCCL for the collectives when every process of a machine has a GPU of
// its own and the Accelerator trains on GPUs (GOACCEL_DIST_BACKEND chooses
// otherwise); Config.InitProcessGroup.Timeout, when positive, overrides the
// environment's bound on the rendezvous and the collectives.
func joinGroup(r resolved) (comm, error) {
	groupMu.Lock()
	defer groupMu.Unlock()
	if groupComm != nil {
		groupUsers++
		return groupComm, nil
	}
	cfg, err := dist.FromEnv()
	if err != nil {
		return nil, err
	}
	if cfg.WorldSize <= 1 {
		return solo{}, nil
	}
	if r.InitProcessGroup.Timeout > 0 {
		cfg.Timeout = r.InitProcessGroup.Timeout
	}
	if cfg.Backend == "" {
		cfg.Backend = pickBackend(r, cfg)
	}
	g, err := dist.Init(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	groupComm, groupUsers = distComm{g}, 1
	host.Current().Worker.SetLeave(leaveAtExit)
	return groupComm, nil
}

// leaveAtExit leaves the group when a launched function returns without
// EndTraining: every rank waits for the others, then closes, so no rank's
// exit cuts a peer's connection while it still reads from it.
func leaveAtExit() error {
	groupMu.Lock()
	c := groupComm
	groupComm, groupUsers = nil, 0
	groupMu.Unlock()
	if c == nil {
		return nil
	}
	err := c.Barrier()
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	return err
}

// leaveGroup closes c when no other Accelerator uses it.
func leaveGroup(c comm) error {
	groupMu.Lock()
	defer groupMu.Unlock()
	if c != groupComm {
		return nil // solo, or a group the caller manages
	}
	if groupUsers--; groupUsers > 0 {
		return nil
	}
	groupComm = nil
	return c.Close()
}

// distComm adapts a dist.Group to comm. Collectives are bounded by the
// group's own timeout, and fail fast with dist.ErrPeerLost when a peer dies.
type distComm struct{ g *dist.Group }

var bg = context.Background()

func (d distComm) Rank() int      { return d.g.Rank() }
func (d distComm) Size() int      { return d.g.Size() }
func (d distComm) LocalRank() int { return d.g.LocalRank() }
func (d distComm) LocalSize() int { return d.g.LocalSize() }
func (d distComm) Barrier() error { return d.g.Barrier(bg) }

func (d distComm) SetTimeout(t time.Duration) { d.g.SetTimeout(t) }

func (d distComm) TakesDevice(dev tensors.Device) bool { return d.g.TakesDevice(dev) }

func (d distComm) AllGatherIntoTensor(send, recv *tensors.Tensor) error {
	return d.g.AllGatherIntoTensor(bg, send, recv)
}

func (d distComm) StartAllGatherIntoTensor(send, recv *tensors.Tensor) (func() error, error) {
	return d.g.StartAllGatherIntoTensor(bg, send, recv)
}

func (d distComm) ReduceScatterTensor(send, recv *tensors.Tensor, op string) error {
	o, err := distOp(op)
	if err != nil {
		return err
	}
	return d.g.ReduceScatterTensor(bg, send, recv, o)
}

func (d distComm) Split(color, key int) (comm, error) {
	sub, err := d.g.Split(bg, color, key)
	if err != nil {
		return nil, err
	}
	return distComm{sub}, nil
}
func (d distComm) Close() error { return d.g.Close() }

func (d distComm) AllReduce(buf []float32, op string) error {
	o, err := distOp(op)
	if err != nil {
		return err
	}
	return d.g.AllReduce(bg, buf, o)
}

func (d distComm) AllReduceCoalesced(bufs [][]float32, op string) error {
	o, err := distOp(op)
	if err != nil {
		return err
	}
	return d.g.AllReduceCoalesced(bg, bufs, o)
}

// distOp maps the comm op names to dist's.
func distOp(op string) (dist.Op, error) {
	switch op {
	case "sum":
		return dist.Sum, nil
	case "mean":
		return dist.Mean, nil
	case "max":
		return dist.Max, nil
	}
	return 0, fmt.Errorf("all-reduce: unknown op %q", op)
}

func (d distComm) StartAllReduceTensor(t *tensors.Tensor, op string) (func() error, error) {
	o, err := distOp(op)
	if err != nil {
		return nil, err
	}
	return d.g.StartAllReduceTensor(bg, t, o)
}

func (d distComm) AllGatherV(buf []float32) ([]float32, error) {
	parts, err := d.g.AllGatherV(bg, buf)
	if err != nil {
		return nil, err
	}
	var out []float32
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, nil
}

func (d distComm) AllGather(send, recv []float32) error { return d.g.AllGather(bg, send, recv) }

func (d distComm) ReduceScatter(send, recv []float32, op string) error {
	o, err := distOp(op)
	if err != nil {
		return err
	}
	return d.g.ReduceScatter(bg, send, recv, o)
}

func (d distComm) Broadcast(buf []float32, root int) error { return d.g.Broadcast(bg, buf, root) }

func (d distComm) BroadcastBytes(b []byte, root int) ([]byte, error) {
	v := b
	if err := d.g.BroadcastObject(bg, &v, root); err != nil {
		return nil, err
	}
	return v, nil
}

func (d distComm) AllGatherBytes(b []byte) ([][]byte, error) {
	var out [][]byte
	if err := d.g.GatherObject(bg, b, &out); err != nil {
		return nil, err
	}
	return out, nil
}
