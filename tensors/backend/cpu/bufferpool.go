package cpu

import (
	"fmt"
	"runtime"
	"sync"
	"weak"

	"github.com/goaccel/goaccel/tensors/backend"
)

// pool is the CPU's buffer pool. A buffer comes back to it in one of two ways: Release (the
// program said it is done: the buffer is reused by the next allocation of its class, warm in
// the cache), or reclaim, which runs once the garbage collector has found a buffer unreachable
// (every tensor holding it was dropped without Release). The pacer makes the collector run
// often enough for the second way to keep up: it counts the bytes handed out since the last
// collection, less those released, against a budget.
//
// The free lists hold what the program dropped during the last collection cycles; a buffer that
// waits in them through three collections is let go (the garbage collector frees it), so the
// pool shrinks when the program's working set does.
type pool struct {
	mu     sync.Mutex
	free   map[poolKey][]pooled
	pooled int    // bytes currently held in free lists
	epoch  uint64 // the collection the free lists were last trimmed at
	used   uint64 // the collection of the last pooled-size allocation

	pacer *backend.Pacer
	stats PoolStats
}

// PoolStats counts the pool's work.
type PoolStats struct {
	Fresh     int // pooled-size buffers made from fresh memory
	Reused    int // allocations served from the free lists
	Reclaimed int // buffers back from the garbage collector (dropped without Release)
	Trimmed   int // free buffers let go after waiting through three collections
	Evicted   int // free buffers let go, the oldest first, to make room in full lists
}

type poolKey struct {
	dt    backend.DType
	class int // elements
}

// pooled is a free buffer and the collection it was put back at.
type pooled struct {
	b     *backend.Buffer
	epoch uint64
}

// minPooled is the smallest buffer (elements) worth pooling; smaller ones are cheap for the
// garbage collector, which also reclaims them in its own time.
const minPooled = 256

// maxPooled bounds the bytes kept for reuse so a one-off large step does not pin memory forever.
const maxPooled = 512 << 20

// Budget bounds of the pacer: the bytes of buffers dropped without Release that may accumulate
// between two collections. 64 MiB is 16 temporaries of 4 MB (one collection every 16 ops);
// the budget grows towards 256 MiB when collections are costly.
const (
	minBudget = 64 << 20
	maxBudget = 256 << 20
)

func (p *pool) init() {
	p.free = map[poolKey][]pooled{}
	p.pacer = backend.NewPacer("cpu", minBudget, maxBudget)
	p.epoch = backend.Collections()
	armTrim(weak.Make(p))
}

// trimTick is garbage whose cleanup trims a pool and makes the next tick. The pointer keeps it
// out of the tiny allocator, whose blocks are freed together.
type trimTick struct{ _ *byte }

// armTrim trims the pool at the garbage collections that find it idle (no allocation through
// idleCollections collections), which put, trimming only when a buffer comes back, never sees:
// a notebook left idle after a loop of temporaries gives their memory back. (A busy pool is
// trimmed by put; trimming it here too would leave let-go buffers counted in the heap between
// two collections.) It stops with the pool.
func armTrim(w weak.Pointer[pool]) {
	runtime.AddCleanup(&trimTick{}, func(w weak.Pointer[pool]) {
		p := w.Value()
		if p == nil {
			return
		}
		p.mu.Lock()
		if e := backend.Collections(); e != p.epoch && e >= p.used+idleCollections {
			p.trim(e)
		}
		p.mu.Unlock()
		armTrim(w)
	}, w)
}

// Pacer returns the pacer of the pool's buffers, for tests and benchmarks.
func (c *CPU) Pacer() *backend.Pacer { return c.pacer }

// classOf returns the pooled capacity (elements) for n elements of dt.
func classOf(dt backend.DType, n int) int {
	sz := dt.Size()
	return backend.SizeClass(n*sz) / sz
}

// Alloc implements backend.Backend.
func (c *CPU) Alloc(dt backend.DType, n int) *backend.Buffer {
	b, fresh := c.alloc(dt, n)
	if !fresh {
		c.Fill(b, 0)
	}
	return b
}

// AllocUninit implements backend.Backend.
func (c *CPU) AllocUninit(dt backend.DType, n int) *backend.Buffer {
	b, _ := c.alloc(dt, n)
	return b
}

// alloc returns a buffer of n elements from the free lists, or fresh (zeroed) memory.
func (c *CPU) alloc(dt backend.DType, n int) (b *backend.Buffer, fresh bool) {
	if n < minPooled {
		return newBuffer(dt, n, n), true
	}
	c.pacer.Charge(classOf(dt, n) * dt.Size())
	if b := c.reuse(dt, n); b != nil {
		return b, false
	}
	c.mu.Lock()
	c.stats.Fresh++
	c.used = backend.Collections()
	c.mu.Unlock()
	// A class-sized buffer, so that it can serve any request of its class once it comes back.
	b = newBuffer(dt, n, classOf(dt, n))
	b.Cold = true
	backend.Reclaim(b, c.reclaim, rawOf(b))
	return b, true
}

func (c *CPU) reuse(dt backend.DType, n int) *backend.Buffer {
	k := poolKey{dt, classOf(dt, n)}
	c.mu.Lock()
	l := c.free[k]
	if len(l) == 0 {
		c.mu.Unlock()
		return nil
	}
	b := l[len(l)-1].b
	l[len(l)-1] = pooled{}
	c.free[k] = l[:len(l)-1]
	c.pooled -= k.class * dt.Size()
	c.stats.Reused++
	c.used = backend.Collections()
	c.mu.Unlock()
	resize(b, n)
	return b
}

// Release implements backend.Backend: the buffer goes to its class's free list. Buffers below
// minPooled elements, and any beyond maxPooled bytes of free lists, are left to the garbage
// collector.
func (c *CPU) Release(b *backend.Buffer) {
	if b == nil || b.Len < minPooled {
		return
	}
	if capacity(b) != classOf(b.DType, b.Len) {
		return // not one of the pool's buffers (a host buffer made elsewhere)
	}
	c.pacer.Credit(capacity(b) * b.DType.Size())
	b.Cold = false // in use until now: warm
	if !c.put(b) {
		b.Escape()
	}
}

// raw is the memory of a pooled buffer, without the Buffer: what reclaim gets back.
type raw struct {
	dt  backend.DType
	f32 []float32
	f64 []float64
	i64 []int64
	u16 []uint16
}

func rawOf(b *backend.Buffer) raw { return raw{b.DType, b.F32, b.F64, b.I64, b.U16} }

// reclaim puts the memory of a buffer that no tensor references any more back into its free
// list, in a new Buffer that is reclaimed in its turn.
func (c *CPU) reclaim(r raw) {
	b := &backend.Buffer{DType: r.dt, F32: r.f32, F64: r.f64, I64: r.i64, U16: r.u16, Cold: true}
	resize(b, capacity(b))
	// Armed before put makes b visible: from then on another goroutine may take it and resize it.
	backend.Reclaim(b, c.reclaim, rawOf(b))
	if !c.put(b) {
		b.Escape() // the lists are full: the garbage collector frees it
		return
	}
	c.mu.Lock()
	c.stats.Reclaimed++
	c.mu.Unlock()
}

// put adds a pooled-class buffer to its free list (unless it alone is larger than the lists'
// bound), first letting go of the buffers that have waited through idleCollections collections
// and then of the oldest until it fits.
func (c *CPU) put(b *backend.Buffer) bool {
	k := poolKey{b.DType, capacity(b)}
	sz := k.class * b.DType.Size()
	e := backend.Collections()
	c.mu.Lock()
	defer c.mu.Unlock()
	if e != c.epoch {
		c.trim(e)
	}
	if sz > maxPooled {
		return false
	}
	for c.pooled+sz > maxPooled {
		c.evictOldest()
	}
	c.free[k] = append(c.free[k], pooled{b, e})
	c.pooled += sz
	return true
}

// idleCollections is how many collections a free buffer may wait through before the pool lets
// it go (backend.Idle counts on it).
const idleCollections = backend.IdleCollections

// trim drops the free buffers put back idleCollections or more collections before e (called
// with mu held). The oldest of a list are at its front.
func (p *pool) trim(e uint64) {
	p.epoch = e
	for k, l := range p.free {
		i := 0
		for i < len(l) && l[i].epoch+idleCollections <= e {
			p.stats.Trimmed++
			l[i].b.Escape() // the collector frees it; it must not come back through reclaim
			l[i] = pooled{}
			p.pooled -= k.class * k.dt.Size()
			i++
		}
		if i == len(l) {
			delete(p.free, k)
		} else if i > 0 {
			p.free[k] = append(l[:0], l[i:]...)
		}
	}
}

// evictOldest lets go of the free buffer put back longest ago (called with mu held, some list
// not empty; reuse leaves emptied lists in the map): full lists make room for the buffer coming
// back, which the program is using now, rather than keep what an earlier workload left (4 MB
// temporaries filling the lists would otherwise turn every later small buffer into fresh memory).
func (p *pool) evictOldest() {
	var oldest poolKey
	found := false
	for k, l := range p.free {
		if len(l) > 0 && (!found || l[0].epoch < p.free[oldest][0].epoch) {
			oldest, found = k, true
		}
	}
	l := p.free[oldest]
	p.stats.Evicted++
	l[0].b.Escape()
	l[0] = pooled{}
	p.pooled -= oldest.class * oldest.dt.Size()
	if len(l) == 1 {
		delete(p.free, oldest)
	} else {
		p.free[oldest] = l[1:]
	}
}

// PoolStats returns the pool's counters, for tests and benchmarks.
func (c *CPU) PoolStats() PoolStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Pooled returns the bytes held in free lists, for tests and benchmarks.
func (c *CPU) Pooled() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pooled
}

func newBuffer(dt backend.DType, n, capacity int) *backend.Buffer {
	b := &backend.Buffer{DType: dt, Len: n}
	switch dt {
	case backend.F32:
		b.F32 = make([]float32, n, capacity)
	case backend.F64:
		b.F64 = make([]float64, n, capacity)
	case backend.I64:
		b.I64 = make([]int64, n, capacity)
	case backend.BF16, backend.F16:
		b.U16 = make([]uint16, n, capacity)
	default:
		panic(fmt.Sprintf("cpu: unknown dtype %d", dt))
	}
	return b
}

// capacity is the number of elements b's slice can hold.
func capacity(b *backend.Buffer) int {
	switch b.DType {
	case backend.F32:
		return cap(b.F32)
	case backend.F64:
		return cap(b.F64)
	case backend.I64:
		return cap(b.I64)
	}
	return cap(b.U16)
}

// resize sets b's length to n elements (n within its capacity).
func resize(b *backend.Buffer, n int) {
	b.Len = n
	switch b.DType {
	case backend.F32:
		b.F32 = b.F32[:n]
	case backend.F64:
		b.F64 = b.F64[:n]
	case backend.I64:
		b.I64 = b.I64[:n]
	default:
		b.U16 = b.U16[:n]
	}
}
