package session

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// heapMiB is the live heap after collecting, in MiB.
// heapMiB is the live heap once the session is idle: a few collections let
// the tensors' CPU pool give back the buffers it kept for reuse (it trims
// what waited through three), as an idle kernel does.
func heapMiB() float64 {
	for range 6 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	debug.FreeOSMemory()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}

// A value no name reaches is garbage at once: re-running cells that
// redefine or reassign a 256 KB tensor 1,000 times (256 MB if each stayed)
// leaves the heap within 50 MiB of where it started, as does a cell that
// only updates a number (what the interpreter keeps per cell is small).
func TestRedefinedValuesAreFreed(t *testing.T) {
	if testing.Short() {
		t.Skip("3,000 cells")
	}
	if raceEnabled {
		t.Skip("the race detector's shadow memory and slowness say nothing of what the session keeps")
	}
	s, _ := newSession(t)
	ctx := context.Background()
	if r := s.Execute(ctx, "import \"github.com/goaccel/goaccel/tensors\"\nacc := 0.0\nx := tensors.Zeros(1)"); r.Error != nil {
		t.Fatal(r.Error.Evalue)
	}
	for _, cell := range []string{"x := tensors.Randn(256, 256)", "x = tensors.Randn(256, 256)", "acc += 1.0"} {
		for i := 0; i < 10; i++ {
			s.Execute(ctx, cell)
		}
		before := heapMiB()
		for i := 0; i < 1000; i++ {
			if r := s.Execute(ctx, cell); r.Error != nil {
				t.Fatalf("%q: %s", cell, r.Error.Evalue)
			}
		}
		if grew := heapMiB() - before; grew > 50 {
			t.Errorf("1,000 runs of %q: the heap grew by %.0f MiB, want at most 50", cell, grew)
		} else {
			t.Logf("1,000 runs of %q: the heap grew by %.1f MiB", cell, grew)
		}
	}
}
