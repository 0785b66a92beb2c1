package parallel

import (
	"runtime"
	"sync/atomic"
)

// RunNear is Run for chunks whose data outlives the call (a layer's images, read again by its
// backward pass): the chunks are split into as many contiguous runs as there are parts, and
// part p takes the chunks of run p first, in order, before it helps with the others. Calls
// with the same parts and n thus give a part the same chunks, whose data is still in the
// caches of the core that part ran on, unless it falls behind; Run hands chunks to whichever
// part asks first, so a chunk's data moves between cores from call to call.
func RunNear(parts, n int, fn func(part, c int)) {
	parts = min(parts, runtime.GOMAXPROCS(0), n)
	if parts < 2 {
		for c := 0; c < n; c++ {
			fn(0, c)
		}
		return
	}
	// next[r] is the next chunk of run r, which ends where run r+1 starts.
	next := make([]atomic.Int64, parts)
	for r := range next {
		next[r].Store(int64(r * n / parts))
	}
	// Run makes n calls and each takes exactly one chunk not taken yet, so every chunk runs once.
	Run(parts, n, func(part, _ int) {
		for i := 0; i < parts; i++ {
			r := (part + i) % parts
			end := int64((r + 1) * n / parts)
			if next[r].Load() >= end {
				continue
			}
			if c := next[r].Add(1) - 1; c < end {
				fn(part, int(c))
				return
			}
		}
		panic("parallel: RunNear found no chunk left") // unreachable: n calls for n chunks
	})
}
