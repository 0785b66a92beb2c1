package dist

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// inProcess starts n ranks of one group inside this process.
func inProcess(t *testing.T, n int, transport string) []*Group {
	t.Helper()
	port, token := freePort(t), NewToken()
	gs := make([]*Group, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gs[r], errs[r] = Init(context.Background(), Config{
				Rank: r, WorldSize: n, LocalRank: r, LocalWorldSize: n,
				MasterAddr: "127.0.0.1", MasterPort: port, Token: token,
				Transport: transport, Timeout: 30 * time.Second,
			})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return gs
}

func TestCloseEndsACollectiveInProgress(t *testing.T) {
	for _, transport := range []string{"shm", "tcp"} {
		t.Run(transport, func(t *testing.T) {
			gs := inProcess(t, 2, transport)
			defer gs[1].Close()
			done := make(chan error, 1)
			go func() { done <- gs[0].AllReduce(context.Background(), make([]float32, 100), Sum) }()
			time.Sleep(100 * time.Millisecond) // rank 1 never joins
			gs[0].Close()
			select {
			case err := <-done:
				if !errors.Is(err, ErrClosed) {
					t.Fatalf("want ErrClosed, got %v", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Close did not end the all-reduce")
			}
		})
	}
}

func TestCancelledContextEndsACollective(t *testing.T) {
	gs := inProcess(t, 2, "shm")
	defer gs[0].Close()
	defer gs[1].Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	err := gs[0].AllReduce(ctx, make([]float32, 100), Sum)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context's error, got %v", err)
	}
	if err := gs[0].Barrier(context.Background()); err == nil {
		t.Fatal("a group that failed mid-collective must stay failed")
	}
}
