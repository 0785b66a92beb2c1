package backend

import (
	"runtime/debug"
	"sync"
	"time"
)

// A program that pauses (a notebook between two cells) holds, besides its live data, the buffers
// it dropped since the last collection (up to a pacer's budget, sized for training loops), the
// free buffers its pools keep for reuse, and the heap the garbage collector has not returned to
// the operating system. CollectDropped and Idle give them back.

var (
	pacersMu sync.Mutex
	pacers   []*Pacer // every pacer made (one per device), for CollectDropped
)

// IdleCollections is how many collections a pool's free buffer may wait through before the pool
// lets it go. A buffer reclaimed by one collection may be stamped with its number or the next
// (the cleanups that count collections and reclaim buffers run in any order), so one idle cycle
// is 3.
const IdleCollections = 3

// CollectDropped runs a collection when the buffers dropped without Release since the last one
// add up to more than limit bytes on some device, and reports whether it ran one. A notebook calls
// it at the end of each cell: what the cell dropped comes back to the pools then, to be reused by
// the next cells, instead of piling up to a pacer's budget (64–256 MiB) over many cells.
func CollectDropped(limit int64) bool {
	e := collections.Load()
	pacersMu.Lock()
	over := false
	for _, p := range pacers {
		// A pacer's debt counts from the collection it was last reset at; an older one is void.
		if p.epoch.Load() == e && p.debt.Load() > limit {
			over = true
		}
	}
	pacersMu.Unlock()
	if !over {
		return false
	}
	collectMu.Lock()
	defer collectMu.Unlock()
	collect(50 * time.Millisecond)
	pacersMu.Lock()
	for _, p := range pacers {
		p.debt.Store(0) // in case tick's cleanup has not run yet
		p.count.Store(0)
	}
	pacersMu.Unlock()
	due.Store(false)
	return true
}

// Idle gives back all a paused program holds beyond its live data: it collects until every pool
// nothing allocated from meanwhile has let go of its free buffers (they wait through
// IdleCollections collections), then returns the freed heap to the operating system. It takes a
// few collections: call it once a program has paused (a notebook idle for a while), not in a loop.
// The next allocations start from fresh memory.
func Idle() {
	for range IdleCollections + 1 {
		Collect()
	}
	debug.FreeOSMemory()
}
