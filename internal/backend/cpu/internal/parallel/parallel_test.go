package parallel

import (
	"sync/atomic"
	"testing"
)

func TestRunCallsEveryChunkOnce(t *testing.T) {
	var r Runner
	for _, n := range []int{0, 1, 2, 7, 1000} {
		counts := make([]atomic.Int32, n)
		fn := func(c int) { counts[c].Add(1) }
		for rep := 0; rep < 3; rep++ {
			r.Run(n, fn)
		}
		for c := range counts {
			if got := counts[c].Load(); got != 3 {
				t.Fatalf("n=%d: chunk %d ran %d times in 3 calls", n, c, got)
			}
		}
	}
}

func TestRunDoesNotAllocate(t *testing.T) {
	var r Runner
	sink := make([]int, 64)
	fn := func(c int) { sink[c]++ }
	r.Run(64, fn)
	if a := testing.AllocsPerRun(50, func() { r.Run(64, fn) }); a != 0 {
		t.Errorf("Run allocates %v times per call", a)
	}
}
