// Package parallel splits an optimizer step's element-wise work across the CPU cores with a shared
// pool of worker goroutines, without allocating per call.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Runner runs chunked work; its zero value is ready. One Runner serves one caller at a time (an
// optimizer owns one): the counters of the call in progress live in it, so a call allocates nothing.
type Runner struct {
	next atomic.Int64
	wg   sync.WaitGroup
	fn   func(c int)
	n    int64
}

type task struct{ r *Runner }

var (
	startOnce sync.Once
	tasks     chan task
)

// start launches GOMAXPROCS−1 workers once per process; they sleep on the channel between calls.
func start() {
	tasks = make(chan task)
	for i := 1; i < runtime.GOMAXPROCS(0); i++ {
		go func() {
			for t := range tasks {
				t.r.drain()
				t.r.wg.Done()
			}
		}()
	}
}

// Run calls fn(c) for every chunk c in [0, n), on the calling goroutine and on idle pool workers,
// and returns when all chunks are done. Chunks must be independent. fn should be a func value
// stored by the caller (a method value created per call would allocate).
func (r *Runner) Run(n int, fn func(c int)) {
	if n <= 1 || runtime.GOMAXPROCS(0) == 1 {
		for c := 0; c < n; c++ {
			fn(c)
		}
		return
	}
	startOnce.Do(start)
	r.fn, r.n = fn, int64(n)
	r.next.Store(0)
	for i := 1; i < min(n, runtime.GOMAXPROCS(0)); i++ {
		r.wg.Add(1)
		select {
		case tasks <- task{r}:
		default: // every worker is busy (another optimizer, or few cores): do it here
			r.wg.Done()
		}
	}
	r.drain()
	r.wg.Wait()
	r.fn = nil
}

func (r *Runner) drain() {
	for c := r.next.Add(1) - 1; c < r.n; c = r.next.Add(1) - 1 {
		r.fn(int(c))
	}
}
