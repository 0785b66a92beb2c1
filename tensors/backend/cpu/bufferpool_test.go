package cpu

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/goaccel/goaccel/tensors/backend"
)

func TestPoolReusesReleasedBuffersAndAllocZeroesThem(t *testing.T) {
	c := New()
	b := c.Alloc(backend.F32, 1000)
	for i := range b.F32 {
		b.F32[i] = 7
	}
	c.Release(b)
	u := c.AllocUninit(backend.F32, 1000)
	if u != b {
		t.Fatal("AllocUninit did not reuse the released buffer")
	}
	c.Release(u)
	z := c.Alloc(backend.F32, 1000)
	if z != b {
		t.Fatal("Alloc did not reuse the released buffer")
	}
	for i, v := range z.F32 {
		if v != 0 {
			t.Fatalf("reused buffer element %d = %v, want 0", i, v)
		}
	}
	if other := c.AllocUninit(backend.F32, 5000); other == b {
		t.Fatal("a buffer of another size class came from the pool")
	}
}

func TestPoolServesNearbySizesFromOneClass(t *testing.T) {
	c := New()
	b := c.AllocUninit(backend.F32, 1000) // 4000 bytes: the 4096-byte class
	c.Release(b)
	s := c.Alloc(backend.F32, 999)
	if s != b || s.Len != 999 || len(s.F32) != 999 {
		t.Fatalf("a request of the same class got %p with %d elements (%d in the slice), want the released buffer resized to 999", s, s.Len, len(s.F32))
	}
	for i, v := range s.F32 {
		if v != 0 {
			t.Fatalf("element %d = %v after Alloc, want 0", i, v)
		}
	}
	c.Release(s)
	if l := c.AllocUninit(backend.F32, 1024); l != b || len(l.F32) != 1024 {
		t.Fatal("the class's largest request did not reuse the buffer at full length")
	}
	if c.Pooled() != 0 {
		t.Fatalf("pool still holds %d bytes", c.Pooled())
	}
}

func TestPoolIgnoresBuffersItDidNotMake(t *testing.T) {
	c := New()
	c.Release(backend.NewHost(backend.F32, 1000)) // capacity 1000, not a class size
	if c.Pooled() != 0 {
		t.Fatal("a foreign buffer entered the pool")
	}
}

// TestFullPoolMakesRoomForTheBufferComingBack: once the lists are full of one workload's large
// buffers, a smaller buffer coming back is kept (the oldest large one is let go), so the next
// workload's allocations are served from the pool rather than from fresh memory.
func TestFullPoolMakesRoomForTheBufferComingBack(t *testing.T) {
	c := New()
	// A class whose list was emptied by reuse stays in the map, empty: eviction must skip it.
	c.Release(c.AllocUninit(backend.F32, 5000))
	held := c.AllocUninit(backend.F32, 5000)
	defer runtime.KeepAlive(held) // not reclaimed into the lists by a collection the test makes
	large := maxPooled / 4 / 8    // eight of these fill the lists
	var bufs []*backend.Buffer
	for range 8 {
		bufs = append(bufs, c.AllocUninit(backend.F32, large))
	}
	for _, b := range bufs {
		c.Release(b)
	}
	if c.Pooled() != 8*classOf(backend.F32, large)*4 {
		t.Fatalf("pool holds %d bytes, want the eight large buffers", c.Pooled())
	}
	small := c.AllocUninit(backend.F32, 1000)
	c.Release(small)
	st := c.PoolStats()
	if st.Evicted != 1 {
		t.Fatalf("evicted %d buffers, want 1 (the oldest large one)", st.Evicted)
	}
	fresh := st.Fresh
	if again := c.AllocUninit(backend.F32, 1000); again != small || c.PoolStats().Fresh != fresh {
		t.Fatal("the small buffer was not kept for the next allocation of its class")
	}
	if c.Pooled() > maxPooled {
		t.Fatalf("pool holds %d bytes, bound %d", c.Pooled(), maxPooled)
	}
}

func TestPoolStopsGrowingAtItsBound(t *testing.T) {
	c := New()
	n := maxPooled/4/8 + 1
	bufs := make([]*backend.Buffer, 10)
	for i := range bufs {
		bufs[i] = c.AllocUninit(backend.F32, n)
	}
	for _, b := range bufs {
		c.Release(b)
	}
	if c.pooled > maxPooled {
		t.Fatalf("pool holds %d bytes, bound %d", c.pooled, maxPooled)
	}
}

// TestDroppedBuffersComeBackAfterACollection: a buffer no one references is reclaimed into its
// free list by the next collection and serves the next request of its class; an escaped one is
// never reclaimed.
func TestDroppedBuffersComeBackAfterACollection(t *testing.T) {
	c := New()
	c.AllocUninit(backend.F32, 5000) // dropped at once
	kept := c.AllocUninit(backend.F32, 5000)
	kept.Escape()
	kept = nil
	backend.Collect()
	if st := c.PoolStats(); st.Reclaimed != 1 {
		t.Fatalf("%d buffers reclaimed, want the dropped one only (the escaped one is not)", st.Reclaimed)
	}
	if c.Pooled() != classOf(backend.F32, 5000)*4 {
		t.Fatalf("pool holds %d bytes, want one buffer of the class", c.Pooled())
	}
	before := c.PoolStats().Fresh
	c.AllocUninit(backend.F32, 5100)
	if c.PoolStats().Fresh != before {
		t.Fatal("a request of the class was not served by the reclaimed buffer")
	}
}

// TestPoolLetsGoOfBuffersIdleForThreeCollections: free buffers nobody asks for are dropped once
// three collections have passed, so the pool shrinks with the working set.
func TestPoolLetsGoOfBuffersIdleForThreeCollections(t *testing.T) {
	c := New()
	b := c.AllocUninit(backend.F32, 5000)
	c.Release(b)
	for range idleCollections + 1 {
		backend.Collect()
	}
	c.Release(c.AllocUninit(backend.F32, 300)) // a put, which trims
	if st := c.PoolStats(); st.Trimmed != 1 || c.Pooled() != classOf(backend.F32, 300)*4 {
		t.Fatalf("trimmed %d, pool %d bytes; want the idle buffer gone and only the new one kept", st.Trimmed, c.Pooled())
	}
}

// A pool left idle gives its free buffers back after a few collections,
// also when nothing is allocated or released meanwhile.
func TestAnIdlePoolIsTrimmedByCollectionsAlone(t *testing.T) {
	c := New()
	for range 8 {
		c.Release(c.AllocUninit(backend.F32, 1<<20))
	}
	if c.Pooled() == 0 {
		t.Fatal("nothing pooled to begin with")
	}
	deadline := time.Now().Add(5 * time.Second)
	for c.Pooled() != 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if c.Pooled() != 0 {
		t.Fatalf("the pool still holds %d bytes after 5 s of collections with nothing allocated", c.Pooled())
	}
}

// The end of a notebook cell collects what the cell dropped once it passes a limit
// (backend.CollectDropped): below it nothing runs, past it the dropped buffers come back to the
// pool at once instead of piling up to the pacer's budget.
func TestCollectDroppedRunsPastItsLimitOnly(t *testing.T) {
	// A collection of Go's own would reset the debts (they count from the last collection).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	c := New()
	backend.Collect() // the debts count from here
	const n = 1 << 20 // 4 MiB of float32
	drop := func(k int) {
		for range k {
			c.AllocUninit(backend.F32, n)
		}
	}
	drop(2)
	if backend.CollectDropped(16 << 20) {
		t.Fatal("collected for 8 MiB dropped, under a 16 MiB limit")
	}
	drop(3)
	reclaimed := c.PoolStats().Reclaimed
	if !backend.CollectDropped(16 << 20) {
		t.Fatal("did not collect for 20 MiB dropped, over a 16 MiB limit")
	}
	if got := c.PoolStats().Reclaimed - reclaimed; got != 5 {
		t.Fatalf("%d dropped buffers came back, want 5", got)
	}
	if backend.CollectDropped(16 << 20) {
		t.Fatal("collected again with nothing dropped since")
	}
}

// A paused program gives back what the pools keep for reuse (backend.Idle).
func TestIdleEmptiesThePool(t *testing.T) {
	c := New()
	for range 4 {
		c.Release(c.AllocUninit(backend.F32, 1<<20))
	}
	c.AllocUninit(backend.F32, 1<<19) // dropped: reclaimed by the first collection
	if c.Pooled() == 0 {
		t.Fatal("nothing pooled to begin with")
	}
	backend.Idle()
	if c.Pooled() != 0 {
		t.Fatalf("the pool holds %d bytes after Idle, want none", c.Pooled())
	}
}
