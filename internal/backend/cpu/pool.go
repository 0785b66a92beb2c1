package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The CPU backend's worker goroutines. Ops run back to back a few microseconds apart, and
// waking a parked goroutine (and the OS thread under it) costs tens of microseconds, as much as
// a whole elementwise op over a million floats. So, as OpenMP's threads do for PyTorch, a
// worker that finishes a job keeps looking for the next one for spinFor before it parks, and
// the caller takes chunks itself from the same counter: a worker that starts late (parked, or
// its core busy with another process) finds the work done instead of delaying it.

// spinFor is how long an idle worker keeps looking for work before it parks.
const spinFor = 100 * time.Microsecond

// poolJob is one call's chunks.
type poolJob struct {
	fn      func(part, c int)
	n       int64
	parts   int32
	next    atomic.Int64 // the next chunk to take
	left    atomic.Int64 // chunks not finished yet
	joiners atomic.Int32 // participants so far, the caller included
}

// work takes and runs chunks until none is left.
func (j *poolJob) work(part int) {
	for c := j.next.Add(1) - 1; c < j.n; c = j.next.Add(1) - 1 {
		j.fn(part, int(c))
		j.left.Add(-1)
	}
}

// pool is the shared worker set: one job at a time (a second concurrent caller runs its chunks
// on goroutines of its own, see poolRun).
var pool struct {
	once    sync.Once
	busy    atomic.Bool
	job     atomic.Pointer[poolJob]
	gen     atomic.Uint64 // bumped for every job published
	parked  atomic.Int32
	wake    chan struct{}
	workers int
}

func startPool() {
	pool.workers = runtime.GOMAXPROCS(0) - 1
	pool.wake = make(chan struct{}, pool.workers)
	for range pool.workers {
		go poolWorker()
	}
}

func poolWorker() {
	var seen uint64
	for {
		idle := time.Now()
		for spins := 0; pool.gen.Load() == seen; spins++ {
			if spins%64 == 63 && time.Since(idle) > spinFor {
				pool.parked.Add(1)
				if pool.gen.Load() == seen { // no job published since the check above
					<-pool.wake
				}
				pool.parked.Add(-1)
				idle = time.Now()
			}
			runtime.Gosched() // let this P run any other goroutine that is ready
		}
		seen = pool.gen.Load()
		if j := pool.job.Load(); j != nil {
			if part := j.joiners.Add(1) - 1; part < j.parts {
				j.work(int(part))
			}
		}
	}
}

// poolRun calls fn(part, c) for every chunk c in [0, n) and returns when all are done. At most
// parts goroutines take part: the caller (part 0) and idle pool workers (parts 1, 2, …), so
// part can index per-goroutine scratch space.
func poolRun(parts, n int, fn func(part, c int)) {
	if parts > runtime.GOMAXPROCS(0) {
		parts = runtime.GOMAXPROCS(0)
	}
	if parts < 2 || n < 2 {
		for c := 0; c < n; c++ {
			fn(0, c)
		}
		return
	}
	pool.once.Do(startPool)
	if pool.workers < 1 || !pool.busy.CompareAndSwap(false, true) {
		goroutineRun(parts, n, fn) // another op holds the pool (or GOMAXPROCS grew from 1)
		return
	}
	j := &poolJob{fn: fn, n: int64(n), parts: int32(parts)}
	j.left.Store(int64(n))
	j.joiners.Store(1)
	pool.job.Store(j)
	pool.gen.Add(1)
	for w := pool.parked.Load(); w > 0; w-- {
		select {
		case pool.wake <- struct{}{}:
		default:
		}
	}
	j.work(0)
	for spins := 0; j.left.Load() > 0; spins++ {
		if spins%64 == 63 {
			runtime.Gosched()
		}
	}
	pool.job.Store(nil)
	pool.busy.Store(false)
}

// goroutineRun is poolRun on goroutines started for this call.
func goroutineRun(parts, n int, fn func(part, c int)) {
	j := &poolJob{fn: fn, n: int64(n)}
	var wg sync.WaitGroup
	for part := 1; part < min(parts, n); part++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.work(part)
		}()
	}
	j.work(0)
	wg.Wait()
}
