// Package gcheadroom gives the garbage collector of a process a minimum
// headroom: the heap may grow by at least a given number of bytes past the
// live heap between two collections, where GOGC=100 lets it grow by the live
// heap only.
//
// An interpreted worker (goaccel __worker) uses it. Its heap holds the
// interpreter's compiled program, a few megabytes of small, pointer-dense
// nodes that every collection scans; a compiled program keeps its code out
// of the heap. A training loop on a small model allocates its live heap's
// worth of tensors every few steps, so with the default setting the worker
// collects that often and pays the scan each time. With a headroom of 64 MiB
// it collects several times less often, for at most 64 MiB more memory;
// a heap already larger than the headroom is collected as with GOGC=100.
//
//	stop := gcheadroom.Keep(64 << 20)
//	defer stop()
//
// A GOGC or GOMEMLIMIT setting in the environment is the user's choice:
// Keep then changes nothing.
//
// Files:
//   - gcheadroom.go: Keep, which re-sets the GC percent after every
//     collection (a finalizer on a tick of garbage says one happened), and
//     Percent, the setting for a live heap.
package gcheadroom
