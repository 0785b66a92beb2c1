// Command temporaries times plain code, as a user writes it with no Release, beside the same
// work with Release, for bench/temporaries.sh to set beside PyTorch running the same lines
// (bench/temporaries_torch.py):
//
//	add:    _ = x.Add(y).At(0, 0)                 x, y 1024×1024 float32: one 4 MB temporary
//	chain:  _ = x.Add(y).MulScalar(0.5).At(0, 0)  two
//	mse:    _ = x.Sub(y).Pow(2).Mean().Item()     a chain ending in a reduction
//	sumdim: _ = x.SumDims(false, 1).At(0)         a reduction by rows (4 KB result)
//	matmul: _ = a.MatMul(w).ReLU().At(0, 0)       a [256, 1024] × [1024, 1024] product and its ReLU
//
// Each line reads one element of its result (PyTorch's side .item()): an elementwise result
// nobody reads is never computed (tensors/doc.go, Deferred results), which would time nothing.
//
// Each workload warms up for a second (the pool fills, the pacer's budget settles), then
// reports the best of five windows in wall and process CPU time per iteration, in the format
// of Go benchmarks ("PlainAdd-cpu-procs2  152000 ns/op  290.1 cpu-us/op", procs being
// GOMAXPROCS); a "Released" line follows
// for each, the same work with every temporary released. With -rss N it instead runs N
// iterations of the add and prints the peak resident memory (VmHWM) and the pool's counters.
// -device cuda runs on the first GPU.
//
// Files:
//   - main.go: the flags, the workloads, the timing windows and the read of VmHWM.
package main
