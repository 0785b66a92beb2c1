package nccl

import (
	"context"
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

// The tests run on the fake driver and NCCL of package fakelib (one real rank: collectives copy).
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

// TestTheBackendRunsCollectivesOnTheGPUAndAbortsWhenAPeerIsLost opens rank 1 of 2 on the fake:
// it joins with the id from the store, queues the collectives on the device, and aborts the
// communicator when the group reports a lost peer.
func TestTheBackendRunsCollectivesOnTheGPUAndAbortsWhenAPeerIsLost(t *testing.T) {
	st := newStore()
	id := ncclapi.UniqueID{}
	id.Internal[3] = 9
	st.Set(context.Background(), idKey, id.Internal[:])
	lost := make(chan struct{})
	host := &hostStub{}
	rv := &dist.Rendezvous{Config: dist.Config{Rank: 1, WorldSize: 2, LocalRank: 1, LocalWorldSize: 2}, Store: st, Lost: lost,
		PeerErr: func() error { return &dist.PeerLostError{Rank: 0, Reason: "test"} }}
	ctl.Reset()
	be, err := open(context.Background(), rv, func(context.Context, *dist.Rendezvous) (dist.Backend, error) { return host, nil })
	if err != nil {
		t.Fatal(err)
	}
	b := be.(*backend)
	if b.Device() != tensors.CUDA(1) || b.Transport() != "nccl" {
		t.Fatalf("device %s, transport %s", b.Device(), b.Transport())
	}
	x := tensors.New([]float32{1, 2, 3, 4}, 4).To(tensors.CUDA(1))
	wait, err := b.StartAllReduce(context.Background(), x, dist.Mean)
	if err != nil {
		t.Fatal(err)
	}
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if err := b.BroadcastTensor(context.Background(), x, 0); err != nil {
		t.Fatal(err)
	}
	recv := tensors.Zeros(8).To(tensors.CUDA(1))
	if err := b.AllGatherTensor(context.Background(), x, recv); err != nil {
		t.Fatal(err)
	}
	if got := x.Float32s(); got[3] != 4 {
		t.Fatalf("values after the one-rank collectives: %v", got)
	}
	close(lost)
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(ctl.Log(), "ncclCommAbort") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	log := ctl.Log()
	for _, want := range []string{"ncclCommInitRank nranks=2 rank=1 id0=0", "ncclAllReduce n=4 dt=7 op=4", "ncclBroadcast n=4 dt=7 root=0", "ncclAllGather n=4 dt=7", "ncclCommAbort"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if _, err := b.StartAllReduce(context.Background(), x, dist.Sum); err == nil || !strings.Contains(err.Error(), "aborted") {
		t.Fatalf("all-reduce after the abort = %v", err)
	}
	if err := b.Close(); err != nil || !host.closed || strings.Contains(ctl.Log(), "ncclCommDestroy") {
		t.Fatalf("Close = %v (host closed %v); an aborted communicator must not be destroyed", err, host.closed)
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
