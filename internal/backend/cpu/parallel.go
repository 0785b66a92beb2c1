package cpu

import (
	"runtime"
	"sync"
)

// parallelMin is the work size (elements, or multiply-adds for heavier loops) below which a
// kernel runs on the calling goroutine: spawning costs about a microsecond per goroutine.
const parallelMin = 1 << 16

// parallelFor splits [0, n) into contiguous chunks and runs fn on them, in parallel only when
// work (an estimate of elementary operations) is large enough to pay for goroutines.
func parallelFor(n, work int, fn func(lo, hi int)) {
	workers := runtime.GOMAXPROCS(0)
	if work < parallelMin || workers < 2 || n < 2 {
		fn(0, n)
		return
	}
	if max := work / (parallelMin / 2); max < workers {
		workers = max
	}
	if workers > n {
		workers = n
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := chunk; lo < n; lo += chunk {
		hi := lo + chunk
		if hi > n {
			hi = n
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, hi)
	}
	hi := chunk
	if hi > n {
		hi = n
	}
	fn(0, hi)
	wg.Wait()
}
