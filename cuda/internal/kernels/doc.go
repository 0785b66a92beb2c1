// Package kernels holds goaccel's CUDA kernels: CUDA C under src/, compiled to PTX for
// compute_80 by genptx.sh (`make ptx`) and embedded, so users need no CUDA toolkit; the driver
// JIT-compiles the PTX for the GPU it runs on (sm_80, sm_90, …) when the module is loaded.
//
//	mod, err := drv.ModuleLoad(kernels.PTX)
//
// The tests' emulated device (cuda/internal/fakelib) compiles Sources for the CPU and runs every
// entry the PTX declares (Entries).
//
// Files:
//   - kernels.go: PTX (the embedded kernels.ptx), Sources (src/) and SourcesHash, the hash of
//     src/ the PTX was compiled from (a test checks it against the sources).
//   - entries.go: Entry, Param, Entries and ParseEntries: the PTX's kernels and their .param
//     lists.
//   - kernels.ptx: the generated PTX (genptx.sh; do not edit).
package kernels
