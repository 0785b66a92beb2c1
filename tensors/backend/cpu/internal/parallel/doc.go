// Package parallel runs the CPU's chunked work (the CPU backend's ops, gemm's blocks) on one shared
// pool of worker goroutines.
//
// Ops run back to back a few microseconds apart, and waking a parked goroutine (and the OS
// thread under it) costs tens of microseconds, as much as a whole elementwise op over a million
// floats. So, as OpenMP's threads do for PyTorch, a worker that finishes a job keeps looking for
// the next one for a while (spinFor) before it parks, and the caller takes chunks itself from the
// same counter: a worker that starts late (parked, or its core busy with another process) finds
// the work done instead of delaying it. A panic in a chunk is raised on the caller's goroutine.
//
//	parallel.Run(runtime.GOMAXPROCS(0), len(rows), func(part, c int) {
//		process(rows[c], scratch[part]) // part indexes per-goroutine scratch
//	})
//
// RunNear gives each part the same chunks from call to call, so their data stays in that core's
// caches; a Runner serves a caller that calls often without allocating.
//
// Files:
//   - near.go: RunNear, contiguous runs of chunks per part, with pooled jobs.
//   - parallel.go: the pool of spinning workers, Run and Runner.
package parallel
