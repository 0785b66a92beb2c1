//go:build linux || darwin

package shm

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goaccel/goaccel/dist/internal/reduce"
)

func regions(t *testing.T, p, slot int) []*Region {
	t.Helper()
	return regionsWaiting(t, p, slot, platformWaiter())
}

// regionsWaiting is regions whose ranks sleep with w.
func regionsWaiting(t *testing.T, p, slot int, w waiter) []*Region {
	t.Helper()
	path := filepath.Join(t.TempDir(), "region")
	rs := make([]*Region, p)
	var err error
	if rs[0], err = Create(path, 0, p, slot); err != nil {
		t.Fatal(err)
	}
	for r := 1; r < p; r++ {
		if rs[r], err = Open(path, r, p); err != nil {
			t.Fatal(err)
		}
	}
	for _, g := range rs {
		g.w = w
	}
	t.Cleanup(func() {
		for _, g := range rs {
			g.Close()
		}
	})
	return rs
}

// waiters are the ways a rank can wait for its peers: this platform's, and macOS's short
// sleeps (tested on Linux too).
var waiters = map[string]waiter{"platform": platformWaiter(), "sleep": sleepWaiter{}}

func TestAllReduceAcrossRoundsAndOddSizes(t *testing.T) {
	for name, w := range waiters {
		for _, p := range []int{2, 3} {
			rs := regionsWaiting(t, p, 256, w) // tiny slots force many rounds
			for _, n := range []int{1, 7, 64, 1000 + 3} {
				for _, op := range []reduce.Op{reduce.Sum, reduce.Max, reduce.Min} {
					t.Run(fmt.Sprintf("%s/p%d_n%d_op%d", name, p, n, op), func(t *testing.T) {
						var wg sync.WaitGroup
						errs := make([]error, p)
						for r, g := range rs {
							wg.Add(1)
							go func() {
								defer wg.Done()
								v := make([]float64, n)
								for i := range v {
									v[i] = float64(i*(r+1) - r)
								}
								if err := g.AllReduce(context.Background(), reduce.FromF64(v), reduce.Float64, op); err != nil {
									errs[r] = err
									return
								}
								for i := range v {
									want := float64(i - 0)
									for q := 1; q < p; q++ {
										x := float64(i*(q+1) - q)
										switch op {
										case reduce.Sum:
											want += x
										case reduce.Max:
											want = max(want, x)
										case reduce.Min:
											want = min(want, x)
										}
									}
									if v[i] != want {
										errs[r] = fmt.Errorf("rank %d elem %d = %v want %v", r, i, v[i], want)
										return
									}
								}
							}()
						}
						wg.Wait()
						for _, err := range errs {
							if err != nil {
								t.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}

func TestWaitEndsWhenAPeerIsLost(t *testing.T) {
	rs := regions(t, 2, 256)
	lost := make(chan struct{})
	gone := errors.New("rank 1 lost")
	rs[0].Watch(lost, func() error { return gone })
	time.AfterFunc(30*time.Millisecond, func() { close(lost) })
	err := rs[0].AllReduce(context.Background(), make([]byte, 64), reduce.Float32, reduce.Sum)
	if !errors.Is(err, gone) {
		t.Fatalf("want the loss, got %v", err)
	}
}

func TestWaitEndsWithTheContext(t *testing.T) {
	rs := regions(t, 2, 256)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	err := rs[0].AllReduce(ctx, make([]byte, 64), reduce.Float32, reduce.Sum)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want deadline exceeded, got %v", err)
	}
}

func TestDifferentLengthsAreReportedNotReduced(t *testing.T) {
	rs := regions(t, 2, 256)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for r, g := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			errs[r] = g.AllReduce(ctx, make([]byte, 64*(r+1)), reduce.Float32, reduce.Sum)
		}()
	}
	wg.Wait()
	for r, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "every rank must call the same collectives with the same lengths") {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
}

func TestAllGatherBroadcastBarrierAcrossRounds(t *testing.T) {
	for _, p := range []int{2, 3} {
		rs := regions(t, p, 64) // several rounds per call
		for _, n := range []int{0, 1, 63, 64, 65, 1000} {
			var wg sync.WaitGroup
			errs := make([]error, p)
			for r, g := range rs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ctx := context.Background()
					send := make([]byte, n)
					for i := range send {
						send[i] = byte(r*31 + i)
					}
					recv := make([]byte, n*p)
					if err := g.AllGather(ctx, send, recv); err != nil {
						errs[r] = err
						return
					}
					for q := range p {
						for i := range n {
							if recv[q*n+i] != byte(q*31+i) {
								errs[r] = fmt.Errorf("all-gather p=%d n=%d: rank %d byte %d of rank %d", p, n, r, i, q)
								return
							}
						}
					}
					if err := g.Broadcast(ctx, send, p-1); err != nil {
						errs[r] = err
						return
					}
					for i := range send {
						if send[i] != byte((p-1)*31+i) {
							errs[r] = fmt.Errorf("broadcast p=%d n=%d: byte %d", p, n, i)
							return
						}
					}
					errs[r] = g.Barrier(ctx)
				}()
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestDifferentCollectivesAreReported(t *testing.T) {
	rs := regions(t, 2, 256)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go func() { defer wg.Done(); errs[0] = rs[0].Broadcast(ctx, make([]byte, 64), 0) }()
	go func() { defer wg.Done(); errs[1] = rs[1].AllReduce(ctx, make([]byte, 64), reduce.Float32, reduce.Sum) }()
	wg.Wait()
	for r, err := range errs {
		if err == nil || !strings.Contains(err.Error(), "called broadcast of 64 bytes") {
			t.Fatalf("rank %d: %v", r, err)
		}
	}
}
