package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelMin is the work size (elements, or multiply-adds for heavier loops) below which a
// kernel runs on the calling goroutine: spawning costs about a microsecond per goroutine.
const parallelMin = 1 << 16

// parallelFor splits [0, n) into contiguous chunks and runs fn on them, in parallel only when
// work (an estimate of elementary operations) is large enough to pay for goroutines.
func parallelFor(n, work int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if work < parallelMin || workers < 2 || n < 2 {
		fn(0, n)
		return
	}
	if max := work / (parallelMin / 2); max < workers {
		workers = max
	}
	if workers > n {
		workers = n
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := chunk; lo < n; lo += chunk {
		hi := lo + chunk
		if hi > n {
			hi = n
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, hi)
	}
	hi := chunk
	if hi > n {
		hi = n
	}
	fn(0, hi)
	wg.Wait()
}

// parallelTasks calls fn(worker, task) for every task in [0, n) on up to workers goroutines
// (worker in [0, workers) names the goroutine, for its scratch space) and waits. Tasks are
// taken in order from a shared counter, so a goroutine whose core another process holds delays
// the call by one task, not by a fixed share of the work.
func parallelTasks(workers, n int, fn func(worker, task int)) {
	var next atomic.Int64
	work := func(wk int) {
		for t := int(next.Add(1) - 1); t < n; t = int(next.Add(1) - 1) {
			fn(wk, t)
		}
	}
	var wg sync.WaitGroup
	for wk := 1; wk < min(workers, n); wk++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(wk)
		}()
	}
	work(0)
	wg.Wait()
}
