// Package sim is a strict simulated device for tests: it keeps the device boundary honest on
// machines without a GPU. Its buffers are opaque handles (the host slices of backend.Buffer are
// nil, so any host access panics); kernels run on hidden host copies through the CPU backend;
// every transfer between host and device is counted; a buffer used after Release, or a host
// buffer handed to a kernel, panics with a message saying so. A buffer no tensor references is
// reclaimed, as a GPU's caching allocator gets its blocks back, and its memory counted (Stats:
// Live, LiveBytes, MaxLiveBytes, Reclaimed); CollectEachKernel runs a collection inside kernels
// to prove that no op lets go of what a kernel reads.
//
// Importing the package registers two device types with package tensors: "sim" implements only
// the required Core (so every fused op runs through its composed fallback) and "simfused"
// implements every fused op too. Tests select them with tensors.Device{Type: "sim"}:
//
//	import _ "github.com/goaccel/goaccel/tensors/backend/sim"
//
//	x := tensors.Randn(4, 4).To(tensors.Device{Type: "sim"})
//	y := x.MatMul(x).Float32s()        // read back from the device
//	st := sim.Lookup("sim", 0).Stats() // Uploads, Downloads, Live buffers
//
// Files:
//   - fused.go: the "simfused" device, every fused op run by the CPU kernels on the hidden
//     buffers.
//   - limit.go: SetMemoryLimit (an allocation past it panics with tensors.ErrOutOfMemory naming
//     the limit, as a full GPU does) and ResetPeak.
//   - sim.go: Stats, Device (New, NewFused, Lookup, Pacer), the registration of "sim" and
//     "simfused", reclaimed handles, CollectEachKernel, and the Core and Transfer methods that
//     check every handle.
package sim
