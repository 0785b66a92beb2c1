package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunCallsEveryChunkOnce(t *testing.T) {
	var r Runner
	for _, n := range []int{0, 1, 2, 7, 1000} {
		counts := make([]atomic.Int32, n)
		fn := func(c int) { counts[c].Add(1) }
		for rep := 0; rep < 3; rep++ {
			r.Run(n, fn)
		}
		for c := range counts {
			if got := counts[c].Load(); got != 3 {
				t.Fatalf("n=%d: chunk %d ran %d times in 3 calls", n, c, got)
			}
		}
	}
}

func TestRunDoesNotAllocate(t *testing.T) {
	var r Runner
	sink := make([]int, 64)
	fn := func(c int) { sink[c]++ }
	r.Run(64, fn)
	if a := testing.AllocsPerRun(50, func() { r.Run(64, fn) }); a != 0 {
		t.Errorf("Run allocates %v times per call", a)
	}
}

// TestRunCallsEveryChunkOnceUnderConcurrentCallers runs many callers at once, some nesting a
// call inside a chunk: every chunk runs exactly once, each participant's part is below parts
// and no two goroutines of one call share a part at the same time.
func TestRunCallsEveryChunkOnceUnderConcurrentCallers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var wg sync.WaitGroup
	for caller := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 200 {
				n, parts := 1+(caller*7+round)%23, 1+round%4
				counts := make([]atomic.Int32, n)
				inUse := make([]atomic.Int32, parts)
				Run(parts, n, func(part, c int) {
					if part < 0 || part >= parts {
						t.Errorf("part %d outside [0, %d)", part, parts)
						return
					}
					if inUse[part].Add(1) != 1 {
						t.Errorf("part %d used by two goroutines at once", part)
					}
					if c%5 == 0 {
						var inner atomic.Int32
						Run(2, 3, func(_, _ int) { inner.Add(1) })
						if inner.Load() != 3 {
							t.Errorf("a nested call ran %d of 3 chunks", inner.Load())
						}
					}
					counts[c].Add(1)
					inUse[part].Add(-1)
				})
				for c := range counts {
					if got := counts[c].Load(); got != 1 {
						t.Errorf("chunk %d of %d ran %d times", c, n, got)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestAPanickingChunkPanicsInTheCaller panics in one chunk, wherever it runs: Run panics with
// its value on the caller's goroutine (a panic on a worker would end the process), and the pool
// serves the next call.
func TestAPanickingChunkPanicsInTheCaller(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for bad := range 8 {
		got := func() (v any) {
			defer func() { v = recover() }()
			Run(2, 8, func(_, c int) {
				if c == bad {
					panic("chunk failed")
				}
			})
			return nil
		}()
		if got != "chunk failed" {
			t.Fatalf("chunk %d panicked; Run gave %v, want the chunk's value", bad, got)
		}
		var ran atomic.Int32
		Run(2, 8, func(_, _ int) { ran.Add(1) })
		if ran.Load() != 8 {
			t.Fatalf("after a panic, the next call ran %d of 8 chunks", ran.Load())
		}
	}
}

// TestAPanicOnAWorkerDoesNotEndTheProcess panics only in chunks a pool worker runs.
func TestAPanicOnAWorkerDoesNotEndTheProcess(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for try := 0; try < 100; try++ {
		got := func() (v any) {
			defer func() { v = recover() }()
			Run(2, 8, func(part, _ int) {
				time.Sleep(200 * time.Microsecond) // time for a worker to join
				if part != 0 {
					panic("worker chunk failed")
				}
			})
			return nil
		}()
		switch got {
		case nil: // no worker joined this time
		case "worker chunk failed":
			return
		default:
			t.Fatalf("Run panicked with %v", got)
		}
	}
	t.Fatal("in 100 calls no pool worker took a chunk")
}

func TestRunNearCallsEveryChunkOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, tc := range []struct{ parts, n int }{{1, 5}, {2, 32}, {3, 7}, {4, 4}, {4, 3}, {8, 100}} {
		counts := make([]atomic.Int32, tc.n)
		RunNear(tc.parts, tc.n, func(part, c int) {
			counts[c].Add(1)
		})
		for c := range counts {
			if got := counts[c].Load(); got != 1 {
				t.Fatalf("parts %d, n %d: chunk %d ran %d times", tc.parts, tc.n, c, got)
			}
		}
	}
}
