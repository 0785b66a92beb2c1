package accelerate

import (
	"fmt"
	"sync"
	"testing"

	"github.com/goaccel/goaccel/nn"
	"github.com/goaccel/goaccel/tensors"
)

// countingComm counts the bytes each collective of a comm takes in (what the process hands it:
// send buffers, reduced buffers), by collective, and the group size each ran over.
type countingComm struct {
	comm
	name  string
	mu    *sync.Mutex
	bytes map[string]int64 // "<name> <collective> over <size>" → bytes
}

func (c countingComm) add(what string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bytes[fmt.Sprintf("%s %s over %d", c.name, what, c.comm.Size())] += int64(n)
}

func (c countingComm) AllReduce(buf []float32, op string) error {
	c.add("all-reduce", 4*len(buf))
	return c.comm.AllReduce(buf, op)
}

func (c countingComm) AllReduceCoalesced(bufs [][]float32, op string) error {
	n := 0
	for _, b := range bufs {
		n += 4 * len(b)
	}
	c.add("all-reduce", n)
	return c.comm.AllReduceCoalesced(bufs, op)
}

func (c countingComm) StartAllReduceTensor(t *tensors.Tensor, op string) (func() error, error) {
	c.add("all-reduce", 4*t.Numel())
	return c.comm.StartAllReduceTensor(t, op)
}

func (c countingComm) AllGatherV(buf []float32) ([]float32, error) {
	c.add("all-gather", 4*len(buf))
	return c.comm.AllGatherV(buf)
}

func (c countingComm) AllGather(send, recv []float32) error {
	c.add("all-gather", 4*len(send))
	return c.comm.AllGather(send, recv)
}

func (c countingComm) ReduceScatter(send, recv []float32, op string) error {
	c.add("reduce-scatter", 4*len(send))
	return c.comm.ReduceScatter(send, recv, op)
}

func (c countingComm) Broadcast(buf []float32, root int) error {
	c.add("broadcast", 4*len(buf))
	return c.comm.Broadcast(buf, root)
}

func (c countingComm) BroadcastBytes(b []byte, root int) ([]byte, error) {
	c.add("broadcast", len(b))
	return c.comm.BroadcastBytes(b, root)
}

func (c countingComm) AllGatherBytes(b []byte) ([][]byte, error) {
	c.add("all-gather", len(b))
	return c.comm.AllGatherBytes(b)
}

func (c countingComm) Barrier() error {
	c.add("barrier", 0)
	return c.comm.Barrier()
}

// fsdpTraffic counts the collectives of a prepared model's sharder on its world, shard and
// replica groups.
type fsdpTraffic struct {
	s     *sharder
	mu    sync.Mutex
	bytes map[string]int64
}

// watchTraffic starts counting the collectives of model's HYBRID_SHARD sharder (nil otherwise).
func watchTraffic(model nn.Module) *fsdpTraffic {
	w, ok := prepared(model)
	if !ok || w.fsdp == nil || w.fsdp.replica == nil {
		return nil
	}
	t := &fsdpTraffic{s: w.fsdp, bytes: map[string]int64{}}
	s := w.fsdp
	s.c = countingComm{comm: s.c, name: "world", mu: &t.mu, bytes: t.bytes}
	s.shard = countingComm{comm: s.shard, name: "shard", mu: &t.mu, bytes: t.bytes}
	s.replica = countingComm{comm: s.replica, name: "replica", mu: &t.mu, bytes: t.bytes}
	return t
}

// report stops counting and returns the counts, with the elements of every unit's flat shard
// together under "shard elements".
func (t *fsdpTraffic) report() map[string]int64 {
	if t == nil {
		return nil
	}
	s := t.s
	s.c = s.c.(countingComm).comm
	out := map[string]int64{}
	t.mu.Lock()
	for k, v := range t.bytes {
		out[k] = v
	}
	t.mu.Unlock()
	for _, u := range s.units {
		out["shard elements"] += int64(u.size)
	}
	return out
}

// checkHybridTraffic checks one process's HYBRID_SHARD collectives over steps sync steps on n
// processes in shard groups of g: the parameters are all-gathered and the gradients
// reduce-scattered within the shard group only, the gradient shards (1/g of the model) all-reduced
// within the replica group only, and nothing of the sharder's goes over the whole world.
func checkHybridTraffic(t *testing.T, rank, n, g, steps int, traffic map[string]int64) {
	t.Helper()
	shard := traffic["shard elements"]
	want := map[string]int64{
		fmt.Sprintf("shard reduce-scatter over %d", g): int64(steps) * 4 * int64(g) * shard,
		fmt.Sprintf("replica all-reduce over %d", n/g): int64(steps) * 4 * shard,
		fmt.Sprintf("shard all-gather over %d", g):     -1, // as many as the passes gather units
		"shard elements": shard,
	}
	for k, v := range traffic {
		w, ok := want[k]
		switch {
		case !ok:
			t.Errorf("hybrid-shard, rank %d: %d bytes through %q; want the sharder's collectives on its shard and replica groups only", rank, v, k)
		case w >= 0 && v != w:
			t.Errorf("hybrid-shard, rank %d: %d bytes through %q; want %d", rank, v, k, w)
		case w < 0 && v == 0:
			t.Errorf("hybrid-shard, rank %d: nothing through %q", rank, k)
		}
	}
	for k := range want {
		if _, ok := traffic[k]; !ok {
			t.Errorf("hybrid-shard, rank %d: no %q; got %v", rank, k, traffic)
		}
	}
	if rank == 0 {
		t.Logf("hybrid-shard on %d processes in %d shard groups of %d, rank 0's collectives over 20 steps: %v", n, n/g, g, traffic)
	}
}

// transportOf names how a comm's collectives travel ("nccl", "shm", "tcp", "single"; "" for
// none or another comm).
func transportOf(c comm) string {
	if cc, ok := c.(countingComm); ok {
		c = cc.comm
	}
	if dc, ok := c.(distComm); ok {
		return dc.g.Transport()
	}
	return ""
}
