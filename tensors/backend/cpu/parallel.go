package cpu

import (
	"runtime"

	"github.com/goaccel/goaccel/tensors/backend/cpu/internal/parallel"
)

// parallelMin is the work size (elements, or multiply-adds for heavier loops) below which a
// kernel runs on the calling goroutine: handing chunks to the pool costs about a microsecond.
const parallelMin = 1 << 16

// parallelFor splits [0, n) into contiguous chunks and runs fn on them, on the pool's
// goroutines when work (an estimate of elementary operations) is large enough to pay for them.
// There are a few chunks per core, so a core that joins late still takes a share, and each core
// starts on the same chunks from call to call (parallel.RunNear), where its caches may still
// hold their data: an elementwise add of 1M floats on 2 cores went from 87–90 µs to 72–76 µs.
func parallelFor(n, work int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if work < parallelMin || workers < 2 || n < 2 {
		fn(0, n)
		return
	}
	chunks := min(n, 4*workers, max(2, work/(parallelMin/2)))
	parallel.RunNear(workers, chunks, func(_, c int) { fn(c*n/chunks, (c+1)*n/chunks) })
}
