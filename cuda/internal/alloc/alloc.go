package alloc

import (
	"errors"
	"fmt"
	"sync"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Raw allocates device memory (cuMemAlloc, cuMemFree).
type Raw interface {
	Alloc(bytes int) (uintptr, error)
	Free(p uintptr) error
}

// ErrOutOfMemory is what Raw.Alloc wraps when the device is full: backend.ErrOutOfMemory.
var ErrOutOfMemory = backend.ErrOutOfMemory

// Stats counts the allocator's work.
type Stats struct {
	RawAllocs, RawFrees int   // calls to Raw
	Hits                int   // allocations served from the cache
	LiveBytes           int64 // handed out and not yet freed
	PeakLiveBytes       int64 // the most LiveBytes has been since New or ResetPeak
	CachedBytes         int64 // held for reuse
}

// Cache is a caching allocator over Raw; it is safe for concurrent use.
type Cache struct {
	raw Raw
	// Reclaim, when set, is called once before giving up on an allocation the device cannot
	// satisfy even after the cache is emptied: it should make unreachable buffers return their
	// blocks (the device layer runs the garbage collector).
	Reclaim func()

	mu    sync.Mutex
	free  map[int][]uintptr
	stats Stats
}

// New returns an empty cache over raw.
func New(raw Raw) *Cache { return &Cache{raw: raw, free: map[int][]uintptr{}} }

// Class returns the size a request of bytes is served with (backend.SizeClass: multiples of
// 512 bytes up to 1 MiB, then steps of a quarter of the power of two below).
func Class(bytes int) int { return backend.SizeClass(bytes) }

// Alloc returns a block of at least bytes and its class size (pass it back to Free).
func (c *Cache) Alloc(bytes int) (uintptr, int, error) {
	size := Class(bytes)
	if p, _, err := c.fromCache(size); err == nil {
		return p, size, nil
	}
	p, err := c.raw.Alloc(size)
	if errors.Is(err, ErrOutOfMemory) {
		// Give the cached blocks of other sizes back to the device, then, once, unreachable
		// buffers, and try again.
		if terr := c.Trim(); terr != nil {
			return 0, 0, terr
		}
		p, err = c.raw.Alloc(size)
		if errors.Is(err, ErrOutOfMemory) && c.Reclaim != nil {
			c.Reclaim()
			if p2, _, err2 := c.fromCache(size); err2 == nil {
				return p2, size, nil
			}
			if terr := c.Trim(); terr != nil {
				return 0, 0, terr
			}
			p, err = c.raw.Alloc(size)
		}
	}
	if err != nil {
		st := c.Stats()
		return 0, 0, fmt.Errorf("allocate %d bytes of device memory (%d in use, %d cached): %w", size, st.LiveBytes, st.CachedBytes, err)
	}
	c.mu.Lock()
	c.stats.RawAllocs++
	c.addLive(int64(size))
	c.mu.Unlock()
	return p, size, nil
}

// fromCache pops a cached block of the class size, or fails with ErrOutOfMemory.
func (c *Cache) fromCache(size int) (uintptr, int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.free[size]
	if len(l) == 0 {
		return 0, 0, ErrOutOfMemory
	}
	p := l[len(l)-1]
	c.free[size] = l[:len(l)-1]
	c.stats.Hits++
	c.stats.CachedBytes -= int64(size)
	c.addLive(int64(size))
	return p, size, nil
}

// addLive counts size more bytes in use and raises the peak; c.mu is held.
func (c *Cache) addLive(size int64) {
	c.stats.LiveBytes += size
	c.stats.PeakLiveBytes = max(c.stats.PeakLiveBytes, c.stats.LiveBytes)
}

// ResetPeak starts PeakLiveBytes again from the bytes in use now.
func (c *Cache) ResetPeak() {
	c.mu.Lock()
	c.stats.PeakLiveBytes = c.stats.LiveBytes
	c.mu.Unlock()
}

// Free hands a block of the given class size back for reuse.
func (c *Cache) Free(p uintptr, size int) {
	c.mu.Lock()
	c.free[size] = append(c.free[size], p)
	c.stats.LiveBytes -= int64(size)
	c.stats.CachedBytes += int64(size)
	c.mu.Unlock()
}

// Trim returns every cached block to the device.
func (c *Cache) Trim() error {
	c.mu.Lock()
	free := c.free
	c.free = map[int][]uintptr{}
	c.stats.CachedBytes = 0
	c.mu.Unlock()
	var first error
	for _, l := range free {
		for _, p := range l {
			if err := c.raw.Free(p); err != nil && first == nil {
				first = err
			}
			c.mu.Lock()
			c.stats.RawFrees++
			c.mu.Unlock()
		}
	}
	return first
}

// Stats returns the counters.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}
