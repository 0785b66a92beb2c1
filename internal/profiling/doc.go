// Package profiling records where a process's time goes while accelerate.Profile runs: spans
// of tensor ops (with their device, dtype and operand shapes), of the backward pass's nodes, of
// collectives (with the time they queued behind another) and of the waits for asynchronous
// ones, and of data loading, each on the goroutine that ran it, nested as they ran. It writes
// them in the Chrome trace event format (chrome://tracing, Perfetto, TensorBoard's trace
// viewer open it) and sums them by name for a table of the top ops.
//
// The recorder is process-wide, as PyTorch's profiler is: the instrumented code (package
// tensors, dist, data) has no context to carry one, so it asks Active, one atomic load, and
// does nothing more while no profile runs.
//
//	r := profiling.NewRecorder()
//	if err := profiling.Install(r); err != nil { … }
//	train()
//	profiling.Uninstall(r)
//	r.WriteChromeTrace(f, rank, "rank 0")
//
// Files:
//   - recorder.go: Recorder, Event, Span, Install, Uninstall, Active and Begin.
//   - getg_amd64.s, getg_arm64.s, getg_asm.go: getg, which tells goroutines apart in
//     nanoseconds; getg_other.go: its stack-trace stand-in elsewhere.
//   - chrome.go: the Chrome trace event format (WriteChromeTrace, Merge).
//   - summary.go: Summary, the events summed by name.
package profiling
