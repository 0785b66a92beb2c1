package nccl

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/cuda/internal/fakelib"
	ncclapi "github.com/goaccel/goaccel/cuda/internal/nccl"
	"github.com/goaccel/goaccel/dist"
	"github.com/goaccel/goaccel/tensors"
)

var ctl *fakelib.Control

// The tests run on the fake driver and NCCL of package fakelib: two emulated GPUs, and real
// collectives between ranks.
func TestMain(m *testing.M) { fakelib.Main(m, &ctl) }

// memStore is an in-memory rendezvous store.
type memStore struct {
	mu   sync.Mutex
	kv   map[string][]byte
	wake chan struct{}
}

func newStore() *memStore { return &memStore{kv: map[string][]byte{}, wake: make(chan struct{})} }

func (s *memStore) Set(_ context.Context, k string, v []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kv[k] = append([]byte(nil), v...)
	close(s.wake)
	s.wake = make(chan struct{})
	return nil
}

func (s *memStore) Get(ctx context.Context, k string) ([]byte, error) {
	for {
		s.mu.Lock()
		v, ok := s.kv[k]
		wake := s.wake
		s.mu.Unlock()
		if ok {
			return v, nil
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (s *memStore) Add(context.Context, string, int64) (int64, error) { return 0, nil }
func (s *memStore) Wait(context.Context, ...string) error             { return nil }

func TestRankZerosIDReachesEveryRank(t *testing.T) {
	st := newStore()
	made := ncclapi.UniqueID{}
	made.Internal[0], made.Internal[127] = 42, 7
	var wg sync.WaitGroup
	got := make([]ncclapi.UniqueID, 4)
	for r := 3; r >= 0; r-- { // the others ask before rank 0 has stored it
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			id, err := exchangeID(context.Background(), st, r, func() (ncclapi.UniqueID, error) {
				if r != 0 {
					t.Errorf("rank %d created an id", r)
				}
				return made, nil
			})
			if err != nil {
				t.Error(err)
			}
			got[r] = id
		}(r)
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	for r, id := range got {
		if id != made {
			t.Fatalf("rank %d got a different id", r)
		}
	}
}

func TestAMalformedOrMissingIDIsAnError(t *testing.T) {
	st := newStore()
	st.Set(context.Background(), idKey, []byte("short"))
	if _, err := exchangeID(context.Background(), st, 1, nil); err == nil || !strings.Contains(err.Error(), "5 bytes") {
		t.Fatalf("malformed id: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := exchangeID(ctx, newStore(), 1, nil); err == nil || !strings.Contains(err.Error(), "rank 0's NCCL id") {
		t.Fatalf("no id in time: %v", err)
	}
}

// hostStub stands in for the CPU backend.
type hostStub struct{ closed bool }

func (h *hostStub) AllReduce(context.Context, []byte, dist.DType, dist.Op) error { return nil }
func (h *hostStub) AllGather(context.Context, []byte, []byte) error              { return nil }
func (h *hostStub) ReduceScatter(context.Context, []byte, []byte, dist.DType, dist.Op) error {
	return nil
}
func (h *hostStub) Broadcast(context.Context, []byte, int) error { return nil }
func (h *hostStub) Barrier(context.Context) error                { return nil }
func (h *hostStub) Close() error                                 { h.closed = true; return nil }

// openPair opens ranks 0 and 1 of a group of two (cuda:0 and cuda:1 of the emulated machine)
// through one store, as two processes would; lost[r] reports a lost peer to rank r.
func openPair(t *testing.T) ([2]*backend, [2]*hostStub, [2]chan struct{}) {
	t.Helper()
	st := newStore()
	var bs [2]*backend
	var hosts [2]*hostStub
	var lost [2]chan struct{}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for r := 0; r < 2; r++ {
		hosts[r], lost[r] = &hostStub{}, make(chan struct{})
		rv := &dist.Rendezvous{Config: dist.Config{Rank: r, WorldSize: 2, LocalRank: r, LocalWorldSize: 2}, Store: st, Lost: lost[r],
			PeerErr: func() error { return &dist.PeerLostError{Rank: 1 - r, Reason: "test"} }}
		wg.Add(1)
		go func() {
			defer wg.Done()
			be, err := open(context.Background(), rv, func(context.Context, *dist.Rendezvous) (dist.Backend, error) { return hosts[r], nil })
			if err == nil {
				bs[r] = be.(*backend)
			}
			errs[r] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return bs, hosts, lost
}

// both runs fn on both ranks at once (a collective needs every rank).
func both(t *testing.T, fn func(r int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() { defer wg.Done(); errs[r] = fn(r) }()
	}
	wg.Wait()
	for r, err := range errs {
		if err != nil {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
}

// TestTheBackendRunsCollectivesOnTheGPUAndAbortsWhenAPeerIsLost runs two ranks on the emulated
// GPUs: they join with rank 0's id from the store, reduce, broadcast and gather device tensors
// across the ranks, and a rank aborts its communicator when the group reports a lost peer.
func TestTheBackendRunsCollectivesOnTheGPUAndAbortsWhenAPeerIsLost(t *testing.T) {
	ctl.Reset()
	bs, hosts, lost := openPair(t)
	for r, b := range bs {
		if b.Device() != tensors.CUDA(r) || b.Transport() != "nccl" {
			t.Fatalf("rank %d: device %s, transport %s", r, b.Device(), b.Transport())
		}
	}
	got := make([][]float32, 2)
	both(t, func(r int) error {
		dev := tensors.CUDA(r)
		x := tensors.New([]float32{1, 2, 3, 4}, 4).MulScalar(float64(1 + 2*r)).To(dev) // rank 1: ×3
		wait, err := bs[r].StartAllReduce(context.Background(), x, dist.Mean)          // [2 4 6 8]
		if err != nil {
			return err
		}
		if err := wait(); err != nil {
			return err
		}
		y := tensors.Full(float64(10+r), 2).To(dev)
		if err := bs[r].BroadcastTensor(context.Background(), y, 1); err != nil { // [11 11]
			return err
		}
		recv := tensors.Zeros(4).To(dev)
		if err := bs[r].AllGatherTensor(context.Background(), y, recv); err != nil { // [11 11 11 11]
			return err
		}
		got[r] = append(append(x.Float32s(), y.Float32s()...), recv.Float32s()...)
		return nil
	})
	for r := range got {
		if fmt.Sprint(got[r]) != "[2 4 6 8 11 11 11 11 11 11]" {
			t.Errorf("rank %d after the collectives: %v", r, got[r])
		}
	}
	close(lost[1])
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(ctl.Log(), "ncclCommAbort") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	log := ctl.Log()
	for _, want := range []string{"ncclCommInitRank nranks=2 rank=1", "ncclAllReduce n=4 dt=7 op=4", "ncclBroadcast n=2 dt=7 root=1", "ncclAllGather n=2 dt=7", "ncclCommAbort"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	x := tensors.Ones(4).To(tensors.CUDA(1))
	if _, err := bs[1].StartAllReduce(context.Background(), x, dist.Sum); err == nil || !strings.Contains(err.Error(), "aborted") {
		t.Fatalf("all-reduce after the abort = %v", err)
	}
	if err := bs[1].Close(); err != nil || !hosts[1].closed || strings.Contains(ctl.Log(), "ncclCommDestroy") {
		t.Fatalf("Close = %v (host closed %v); an aborted communicator must not be destroyed", err, hosts[1].closed)
	}
	// Rank 0's communicator sees its peer's abort.
	if err := bs[0].asyncError(); err == nil {
		t.Fatal("rank 0 sees no error after rank 1 aborted")
	}
	bs[0].abort()
	if err := bs[0].Close(); err != nil {
		t.Fatal(err)
	}
}

func TestMoreProcessesThanGPUsIsRefused(t *testing.T) {
	if err := Available(3); err == nil || !strings.Contains(err.Error(), "3 processes on this machine share 2 GPU(s)") {
		t.Fatalf("Available(3) on two GPUs = %v", err)
	}
	if err := Available(2); err != nil {
		t.Fatalf("Available(2) = %v", err)
	}
}

// reuseAfterAllReduce is the scenario of the two tests below on rank 1: it starts the
// all-reduce of a tensor of 2s, keeps nothing of it but what keep decides, lets the garbage
// collector take what is unreachable, then writes 7s into a new tensor of the same size, which
// gets the same block of the cache if the all-reduce's is free, before rank 0 (1s) joins. It
// returns the new tensor's values once everything is done: all 7s unless the all-reduce, still
// queued on NCCL's stream, wrote into the reused block.
func reuseAfterAllReduce(t *testing.T, keep func(x *tensors.Tensor, wait func() error) func() error) []float32 {
	bs, _, _ := openPair(t)
	const n = 4096
	joined := make(chan struct{})
	var u []float32
	both(t, func(r int) error {
		dev := tensors.CUDA(r)
		if r == 0 {
			x := tensors.Ones(n).To(dev)
			<-joined
			wait, err := bs[0].StartAllReduce(context.Background(), x, dist.Sum)
			if err != nil {
				return err
			}
			return wait()
		}
		d := bs[1].d
		x := tensors.Full(2, n).To(dev)
		wait, err := bs[1].StartAllReduce(context.Background(), x, dist.Sum)
		if err != nil {
			return err
		}
		cached := d.CacheStats().CachedBytes
		done := keep(x, wait)
		x = nil
		for deadline := time.Now().Add(time.Second); time.Now().Before(deadline) && d.CacheStats().CachedBytes == cached; {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		y := tensors.Full(7, n).To(dev) // queued on the device's stream
		close(joined)
		if done != nil {
			if err := done(); err != nil {
				return err
			}
		}
		// Everything this rank queued has run (NCCL's stream too) before y is read.
		if err := bs[1].d.Do(func() error { return bs[1].d.Driver().Synchronize() }); err != nil {
			return err
		}
		u = y.Float32s()
		return nil
	})
	return u
}

func allSevens(v []float32) error {
	for i, x := range v {
		if x != 7 {
			return fmt.Errorf("element %d of %d is %v", i, len(v), x)
		}
	}
	return nil
}

// TestTheAllReducesTensorLivesUntilItsWait: a bucket the caller drops after starting its
// all-reduce (keeping only wait, as the reducer does) is not collected before wait, so its block
// is not handed to other tensors while NCCL may still write it.
func TestTheAllReducesTensorLivesUntilItsWait(t *testing.T) {
	u := reuseAfterAllReduce(t, func(_ *tensors.Tensor, wait func() error) func() error { return wait })
	if err := allSevens(u); err != nil {
		t.Fatalf("a tensor allocated after the all-reduce started was overwritten by it: %v", err)
	}
}

// TestABlockInUseByNCCLIsNotReusedBeforeNCCLIsDone: even when the tensor and its wait are both
// dropped (a step abandoned on an error), the caching allocator knows the side stream still uses
// the block: work that reuses it waits for the all-reduce.
func TestABlockInUseByNCCLIsNotReusedBeforeNCCLIsDone(t *testing.T) {
	u := reuseAfterAllReduce(t, func(*tensors.Tensor, func() error) func() error { return nil })
	if err := allSevens(u); err != nil {
		t.Fatalf("a block was reused while NCCL's stream still used it: %v", err)
	}
}
