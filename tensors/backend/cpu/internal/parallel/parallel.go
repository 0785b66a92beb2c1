package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// spinFor is how long an idle worker keeps looking for work before it parks.
const spinFor = 100 * time.Microsecond

// job is one call's chunks.
type job struct {
	fn      func(part, c int)
	n       int64
	parts   int32
	next    atomic.Int64 // the next chunk to take
	left    atomic.Int64 // chunks not finished yet
	joiners atomic.Int32 // participants so far, the caller included
	failed  atomic.Pointer[chunkPanic]
}

// chunkPanic is what a chunk panicked with, carried to the caller's goroutine.
type chunkPanic struct{ value any }

// work takes and runs chunks until none is left.
func (j *job) work(part int) {
	for c := j.next.Add(1) - 1; c < j.n; c = j.next.Add(1) - 1 {
		j.chunk(part, int(c))
	}
}

// chunk runs one chunk, unless an earlier one panicked. A panic is recovered and kept for the
// caller, which raises it on its own goroutine once no chunk is running: a panic on a pool
// worker would otherwise end the process, not just the op.
func (j *job) chunk(part, c int) {
	defer func() {
		if r := recover(); r != nil {
			j.failed.CompareAndSwap(nil, &chunkPanic{r})
		}
		j.left.Add(-1)
	}()
	if j.failed.Load() == nil {
		j.fn(part, c)
	}
}

// raise panics on the caller's goroutine with what a chunk panicked with, if one did.
func (j *job) raise() {
	if f := j.failed.Swap(nil); f != nil {
		panic(f.value)
	}
}

// pool is the shared worker set. It serves one job at a time; a caller that finds it busy
// (another op on another goroutine, or a call nested in a chunk) starts goroutines of its own.
var pool struct {
	once    sync.Once
	busy    atomic.Bool
	job     atomic.Pointer[job]
	holding atomic.Int32  // workers between loading job and leaving it
	gen     atomic.Uint64 // bumped for every job published
	parked  atomic.Int32
	wake    chan struct{}
	workers int
}

func start() {
	pool.workers = runtime.GOMAXPROCS(0) - 1
	pool.wake = make(chan struct{}, max(1, pool.workers))
	for range pool.workers {
		go worker()
	}
}

func worker() {
	var seen uint64
	for {
		idle := time.Now()
		for spins := 0; pool.gen.Load() == seen; spins++ {
			if spins%256 != 255 {
				continue
			}
			if time.Since(idle) > spinFor {
				pool.parked.Add(1)
				if pool.gen.Load() == seen { // nothing published since the check above
					<-pool.wake
				}
				pool.parked.Add(-1)
				idle = time.Now()
				continue
			}
			if spins%4096 == 4095 {
				runtime.Gosched() // every few microseconds, let this P run any goroutine that is ready
			}
		}
		seen = pool.gen.Load()
		pool.holding.Add(1)
		if j := pool.job.Load(); j != nil {
			if part := j.joiners.Add(1) - 1; part < j.parts {
				j.work(int(part))
			}
		}
		pool.holding.Add(-1)
	}
}

var jobs = sync.Pool{New: func() any { return new(job) }}

// Run calls fn(part, c) for every chunk c in [0, n) and returns when all are done. At most parts
// goroutines take part: the caller (part 0) and idle pool workers (parts 1, 2, …), so part can
// index per-goroutine scratch space. Chunks must be independent. If a chunk panics, the chunks
// not started yet are skipped and Run panics with the same value on the caller's goroutine.
func Run(parts, n int, fn func(part, c int)) {
	j := jobs.Get().(*job)
	j.run(parts, n, fn)
	jobs.Put(j)
}

func (j *job) run(parts, n int, fn func(part, c int)) {
	parts = min(parts, runtime.GOMAXPROCS(0), n)
	if parts < 2 {
		for c := 0; c < n; c++ {
			fn(0, c)
		}
		return
	}
	j.fn, j.n, j.parts = fn, int64(n), int32(parts)
	j.next.Store(0)
	j.left.Store(int64(n))
	j.joiners.Store(1)
	j.failed.Store(nil)
	defer func() { j.fn = nil }()
	pool.once.Do(start)
	if pool.workers < 1 || !pool.busy.CompareAndSwap(false, true) {
		j.onGoroutines(parts)
		return
	}
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
	// No worker may still be looking at j when it is reused.
	pool.job.Store(nil)
	for pool.holding.Load() > 0 {
		runtime.Gosched()
	}
	pool.busy.Store(false)
	j.raise()
}

// onGoroutines runs the job on goroutines started for this call.
func (j *job) onGoroutines(parts int) {
	var wg sync.WaitGroup
	for part := 1; part < parts; part++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.work(part)
		}()
	}
	j.work(0)
	wg.Wait()
	j.raise()
}

// Runner is Run for a caller that calls often with chunks of one kind (an optimizer's step):
// its zero value is ready, and a call allocates nothing. One Runner serves one call at a time.
type Runner struct {
	j    job
	fn   func(c int)
	call func(part, c int)
}

// Run calls fn(c) for every chunk c in [0, n) on the calling goroutine and idle pool workers,
// and returns when all chunks are done. fn should be a func value stored by the caller (a
// method value created per call would allocate).
func (r *Runner) Run(n int, fn func(c int)) {
	if r.call == nil {
		r.call = func(_, c int) { r.fn(c) }
	}
	r.fn = fn
	r.j.run(runtime.GOMAXPROCS(0), n, r.call)
	r.fn = nil
}
