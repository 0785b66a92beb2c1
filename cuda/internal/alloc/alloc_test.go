package alloc

import (
	"fmt"
	"sync"
	"testing"
)

// fakeRaw hands out addresses from a counter within a byte budget.
type fakeRaw struct {
	mu         sync.Mutex
	next       uintptr
	cap, used  int
	sizes      map[uintptr]int
	allocs     int
	freedCalls int
}

func newFake(capBytes int) *fakeRaw {
	return &fakeRaw{next: 0x1000, cap: capBytes, sizes: map[uintptr]int{}}
}

func (f *fakeRaw) Alloc(n int) (uintptr, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.used+n > f.cap {
		return 0, fmt.Errorf("cuMemAlloc: %w", ErrOutOfMemory)
	}
	p := f.next
	f.next += uintptr(n)
	f.used += n
	f.sizes[p] = n
	f.allocs++
	return p, nil
}

func (f *fakeRaw) Free(p uintptr) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, ok := f.sizes[p]
	if !ok {
		return fmt.Errorf("free of unknown block %#x", p)
	}
	delete(f.sizes, p)
	f.used -= n
	f.freedCalls++
	return nil
}

func TestClassesRoundUpWithBoundedWaste(t *testing.T) {
	cases := map[int]int{0: 512, 1: 512, 512: 512, 513: 1024, 1 << 20: 1 << 20, 1<<20 + 1: 1<<20 + 1<<18, 3 << 20: 3 << 20, 5<<20 + 1: 6 << 20}
	for in, want := range cases {
		if got := Class(in); got != want {
			t.Errorf("Class(%d) = %d, want %d", in, got, want)
		}
	}
	for n := 1; n < 1<<30; n = n*3 + 7 {
		if c := Class(n); c < n || float64(c) > 1.25*float64(n)+512 {
			t.Fatalf("Class(%d) = %d: outside [n, 1.25n+512]", n, c)
		}
	}
}

func TestFreedBlocksAreReusedWithoutTheDevice(t *testing.T) {
	raw := newFake(1 << 30)
	c := New(raw)
	p, size, err := c.Alloc(1000)
	if err != nil || size != 1024 {
		t.Fatalf("Alloc = %v, size %d", err, size)
	}
	c.Free(p, size)
	q, _, _ := c.Alloc(900) // same class
	if q != p || raw.allocs != 1 {
		t.Fatalf("second allocation %#x (first %#x), %d device allocations; want the cached block", q, p, raw.allocs)
	}
	r, _, _ := c.Alloc(5000)
	if r == p || raw.allocs != 2 {
		t.Fatal("a larger request reused a smaller block")
	}
	s := c.Stats()
	if s.Hits != 1 || s.RawAllocs != 2 || s.LiveBytes != 1024+5120 || s.CachedBytes != 0 || s.PeakLiveBytes != 1024+5120 {
		t.Fatalf("stats %+v", s)
	}
}

// TestPeakCountsTheMostInUseUntilReset: the peak is the largest LiveBytes has been, through
// fresh blocks and cached ones, and ResetPeak starts it again from what is in use.
func TestPeakCountsTheMostInUseUntilReset(t *testing.T) {
	c := New(newFake(1 << 30))
	a, sa, _ := c.Alloc(4096)
	b, sb, _ := c.Alloc(4096)
	c.Free(a, sa)
	c.Free(b, sb)
	if s := c.Stats(); s.PeakLiveBytes != 8192 || s.LiveBytes != 0 {
		t.Fatalf("after two blocks freed: %+v, want peak 8192 and none in use", s)
	}
	c.ResetPeak()
	if s := c.Stats(); s.PeakLiveBytes != 0 {
		t.Fatalf("after ResetPeak with nothing in use: peak %d", s.PeakLiveBytes)
	}
	p, sp, _ := c.Alloc(4096) // from the cache
	if s := c.Stats(); s.PeakLiveBytes != 4096 {
		t.Fatalf("a cached block in use: peak %d, want 4096", s.PeakLiveBytes)
	}
	c.Free(p, sp)
	c.ResetPeak()
	if s := c.Stats(); s.PeakLiveBytes != 0 {
		t.Fatalf("peak %d after the reset, want 0", s.PeakLiveBytes)
	}
}

func TestOutOfMemoryTrimsTheCacheThenReclaimsThenFails(t *testing.T) {
	raw := newFake(4096)
	c := New(raw)
	a, sa, _ := c.Alloc(2048)
	b, sb, _ := c.Alloc(2048)
	c.Free(a, sa)
	// 1536 bytes do not fit beside b and the cached 2048: the cache is trimmed first.
	if _, _, err := c.Alloc(1500); err != nil {
		t.Fatalf("allocation after trimming the cache: %v", err)
	}
	if raw.freedCalls != 1 {
		t.Fatalf("%d blocks returned to the device, want the cached one", raw.freedCalls)
	}
	// Now full: Reclaim (the GC, in the device layer) frees b, whose block then serves.
	reclaimed := false
	c.Reclaim = func() { reclaimed = true; c.Free(b, sb) }
	if _, _, err := c.Alloc(2048); err != nil || !reclaimed {
		t.Fatalf("allocation after reclaiming: %v (reclaimed %v)", err, reclaimed)
	}
	_, _, err := c.Alloc(4096)
	if err == nil || !contains(err.Error(), "out of memory") || !contains(err.Error(), "in use") {
		t.Fatalf("allocation beyond the device = %v", err)
	}
}

func TestConcurrentUseKeepsTheBooks(t *testing.T) {
	raw := newFake(1 << 30)
	c := New(raw)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				p, s, err := c.Alloc(512 * (1 + i%7))
				if err != nil {
					t.Error(err)
					return
				}
				c.Free(p, s)
			}
		}()
	}
	wg.Wait()
	s := c.Stats()
	if s.LiveBytes != 0 || s.Hits+s.RawAllocs != 4000 {
		t.Fatalf("stats %+v after balanced use", s)
	}
	if err := c.Trim(); err != nil || raw.used != 0 || c.Stats().CachedBytes != 0 {
		t.Fatalf("Trim = %v, %d bytes still on the device", err, raw.used)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
