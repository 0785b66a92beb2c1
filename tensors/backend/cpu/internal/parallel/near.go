package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// RunNear is Run for chunks whose data outlives the call (a layer's images, read again by its
// backward pass; the operands of the next elementwise op): the chunks are split into as many
// contiguous runs as there are parts, and part p takes the chunks of run p first, in order,
// before it helps with the others. Calls with the same parts and n thus give a part the same
// chunks, whose data is still in the caches of the core that part ran on, unless it falls
// behind; Run hands chunks to whichever part asks first, so a chunk's data moves between cores
// from call to call.
func RunNear(parts, n int, fn func(part, c int)) {
	parts = min(parts, runtime.GOMAXPROCS(0), n)
	if parts < 2 {
		for c := 0; c < n; c++ {
			fn(0, c)
		}
		return
	}
	j := nearJobs.Get().(*nearJob)
	j.fn, j.n, j.parts = fn, n, parts
	if cap(j.next) < parts {
		j.next = make([]atomic.Int64, parts)
	}
	j.next = j.next[:parts]
	for r := range j.next {
		j.next[r].Store(int64(r * n / parts))
	}
	// Run makes n calls and each takes exactly one chunk not taken yet, so every chunk runs once.
	Run(parts, n, j.call)
	j.fn = nil
	nearJobs.Put(j)
}

// nearJob is one RunNear call: next[r] is the next chunk of run r, which ends where run r+1
// starts. Jobs are pooled, and call is made once per job, so a call allocates nothing.
type nearJob struct {
	next     []atomic.Int64
	n, parts int
	fn       func(part, c int)
	call     func(part, c int)
}

var nearJobs = sync.Pool{New: func() any {
	j := &nearJob{}
	j.call = j.take
	return j
}}

// take runs one chunk: the next of the caller's own run, else the next of the runs after it.
func (j *nearJob) take(part, _ int) {
	for i := 0; i < j.parts; i++ {
		r := (part + i) % j.parts
		end := int64((r + 1) * j.n / j.parts)
		if j.next[r].Load() >= end {
			continue
		}
		if c := j.next[r].Add(1) - 1; c < end {
			j.fn(part, int(c))
			return
		}
	}
	panic("parallel: RunNear found no chunk left") // unreachable: n calls for n chunks
}
