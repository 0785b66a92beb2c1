package backend

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Reclaim arranges for give(raw) to run, on a goroutine of the runtime's, once b is no longer
// reachable: a device's allocator hands the memory behind a buffer that every tensor dropped
// without Release back to its pool. raw must reach the memory, never b itself.
//
// A buffer's memory is in use exactly while its Buffer is reachable. Package tensors keeps a
// tensor, and so its storage and buffer, reachable until every kernel given the buffer has
// returned; a device whose kernels are queued (CUDA) reuses a reclaimed block only for work
// queued after them on the same stream. A kernel that keeps using a buffer's slices after its
// last mention of the buffer itself relies on its caller for this; one that allocates a buffer of
// its own releases it explicitly.
func Reclaim[T any](b *Buffer, give func(T), raw T) {
	b.reclaim = runtime.AddCleanup(b, give, raw)
}

// Escape says b's memory is now reachable without b (a host slice handed to a program, which
// may keep it; a buffer a pool lets go of): it is never reclaimed, and the garbage collector frees
// it once nothing references it.
func (b *Buffer) Escape() { b.reclaim.Stop() }

// A Pacer decides when the garbage collector must run so that the buffers a program drops
// without Release come back (through Reclaim) before a device's memory grows past what the
// program keeps plus a budget. Go's collector sees neither device memory nor the host memory a
// pool keeps reusing (it paces itself by fresh allocations), so without a pacer it would run too
// rarely for a GPU, which fills up, and for the host, whose every fresh buffer is zeroed and
// faulted in. This is Java's limit on direct buffers (which calls System.gc when the buffers
// would exceed it) made a pacer.
//
// A device charges every buffer it hands out and credits every buffer released explicitly;
// once the bytes charged since the last collection, less those credited, exceed the budget (or
// the buffers exceed maxCharged), the next CollectIfDue collects. The budget adapts within [min, max] so that forced collections take
// about 5% of the time between them (doubling while they take more; when they take under 0.5%,
// dropping at once to what would have made them 5%): a program whose heap is costly to scan (an interpreter's)
// gets a larger budget than a compiled one.
//
// A Pacer is safe for concurrent use.
type Pacer struct {
	name     string
	min, max int64 // under collectMu

	budget atomic.Int64
	debt   atomic.Int64  // bytes charged since the collection numbered epoch, less credits
	count  atomic.Int64  // buffers charged since then, less those credited
	epoch  atomic.Uint64 // the collection count debt was last reset at
	forced atomic.Int64  // collections this pacer asked for
}

// NewPacer returns a pacer whose budget starts at min bytes and stays within [min, max].
func NewPacer(name string, min, max int64) *Pacer {
	p := &Pacer{name: name, min: min, max: max}
	p.budget.Store(min)
	p.epoch.Store(collections.Load())
	pacersMu.Lock()
	pacers = append(pacers, p)
	pacersMu.Unlock()
	return p
}

// Charge counts a buffer of bytes handed out. It never collects itself (devices charge while
// holding their locks, and inside kernels): it marks a collection due for CollectIfDue.
func (p *Pacer) Charge(bytes int) {
	if e := collections.Load(); p.epoch.Load() != e {
		// A collection ran since the last reset (asked for by any pacer, or Go's own).
		p.epoch.Store(e)
		p.debt.Store(0)
		p.count.Store(0)
	}
	over := p.debt.Add(int64(bytes)) > p.budget.Load()
	if p.count.Add(1) > maxCharged {
		over = true
	}
	if over && !due.Load() {
		if due.CompareAndSwap(false, true) {
			duePacer.Store(p)
		}
	}
}

// Credit counts a buffer of bytes released explicitly (its memory is reused at once).
func (p *Pacer) Credit(bytes int) {
	p.debt.Add(-int64(bytes))
	p.count.Add(-1)
}

// maxCharged bounds the buffers charged between two collections whatever their bytes: a budget
// sized for 4 MB temporaries (up to 64 of them) would let 65,536 buffers of 4 KB go round before
// one came back, each of them fresh memory and cold in the cache (measured here: a row sum of a
// 1024×1024 tensor took 32–60 µs per call at a 256 MiB budget, 28 µs at 64 MiB), and their
// cleanups would make one collection last 37 ms.
const maxCharged = 16384

// SetBounds changes the budget's bounds (and clamps the budget into them).
func (p *Pacer) SetBounds(min, max int64) {
	collectMu.Lock()
	defer collectMu.Unlock()
	p.min, p.max = min, max
	p.budget.Store(clamp(p.budget.Load(), min, max))
}

func clamp(v, lo, hi int64) int64 { return max(lo, min(v, hi)) }

// Bounds returns the least and the greatest budget of the pacer.
func (p *Pacer) Bounds() (min, max int64) {
	collectMu.Lock()
	defer collectMu.Unlock()
	return p.min, p.max
}

// Budget returns the current budget in bytes.
func (p *Pacer) Budget() int64 { return p.budget.Load() }

// String names the pacer and its budget.
func (p *Pacer) String() string {
	return fmt.Sprintf("%s pacer, budget %d MiB", p.name, p.budget.Load()>>20)
}

// Collections returns how many collections this pacer asked for.
func (p *Pacer) Collections() int64 { return p.forced.Load() }

var (
	due      atomic.Bool           // a pacer is over its budget
	duePacer atomic.Pointer[Pacer] // which one

	collectMu   sync.Mutex
	lastForced  time.Time     // the end of the last forced collection
	collections atomic.Uint64 // garbage collections seen (counted by tick)
)

// CollectIfDue runs a collection when a pacer is over its budget, and waits (briefly) for the
// buffers it found unreachable to be reclaimed. Package tensors calls it before each tensor
// allocation, where it holds no lock and no kernel is running; it costs one atomic load when
// nothing is due.
func CollectIfDue() {
	if !due.Load() {
		return
	}
	collectMu.Lock()
	defer collectMu.Unlock()
	p := duePacer.Load()
	if !due.Load() || p == nil {
		return // another goroutine collected while this one waited
	}
	start := time.Now()
	collect(50 * time.Millisecond)
	end := time.Now()
	took := end.Sub(start)
	if !lastForced.IsZero() {
		since := start.Sub(lastForced)
		b := p.budget.Load()
		switch {
		case took*20 > since && b < p.max:
			p.budget.Store(min(2*b, p.max))
		case took*200 < since && b > p.min:
			// Straight to the budget that would have made this collection 5% of the time
			// (allocation was slow: a new workload of small buffers after one of large ones),
			// not halving once per collection, which at that rate takes seconds.
			p.budget.Store(max(int64(float64(b)*20*took.Seconds()/since.Seconds()), p.min))
		}
	}
	lastForced = end
	p.forced.Add(1)
	p.debt.Store(0) // in case tick's cleanup has not run yet
	p.count.Store(0)
	due.Store(false)
}

// Collect runs the garbage collector and waits until the buffers it found unreachable have been
// reclaimed (tests use it to see a device's memory settled; programs rarely need it).
func Collect() {
	collectMu.Lock()
	defer collectMu.Unlock()
	collect(2 * time.Second) // a loaded machine (or the race detector) runs cleanups late
	due.Store(false)
}

// collect runs the garbage collector and waits up to wait for the cleanups it queued.
func collect(wait time.Duration) {
	start := time.Now()
	runtime.GC()
	waitReclaims(start.Add(wait))
}

// waitReclaims waits until the cleanups queued by the collection that just ran have executed, or
// until the deadline.
func waitReclaims(deadline time.Time) {
	s := []metrics.Sample{{Name: "/gc/cleanups/queued:cleanups"}, {Name: "/gc/cleanups/executed:cleanups"}}
	metrics.Read(s)
	queued := s[0].Value.Uint64()
	for s[1].Value.Uint64() < queued && time.Now().Before(deadline) {
		runtime.Gosched()
		metrics.Read(s[1:])
	}
}

// Collections numbers the garbage collections the process has run (each is counted when its
// cleanups run), for pools that let go of memory left idle for a few of them.
func Collections() uint64 { return collections.Load() }

// tick is garbage whose cleanup counts a collection and makes the next tick. The pointer keeps it
// out of the tiny allocator, whose blocks are freed together.
type tick struct{ _ *byte }

func arm() { runtime.AddCleanup(&tick{}, func(struct{}) { collections.Add(1); arm() }, struct{}{}) }

func init() { arm() }
