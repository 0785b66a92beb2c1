// Package fakelib builds, for tests, an emulated CUDA machine with two GPUs: a stand-in for
// NVIDIA's libcuda.so.1, libcublas.so.13 (and libcublasLt.so.13) and libnccl.so.2, in one shared
// object compiled with the system C++ compiler, that the purego bindings load as they would load
// the real ones. Nothing is mocked on the Go side: goaccel's own kernel sources
// (cuda/internal/kernels/src) are compiled for the CPU with a small CUDA emulation header, so
// cuLaunchKernel runs the real kernels on the parameters the bindings marshalled, with the sizes
// the PTX declares for them.
//
//   - Device memory is the fake's own (guard pages, canaries, poisoned when fresh): a copy or
//     a kernel that reaches outside its allocation is an error or a fault naming it.
//   - Streams run asynchronously on threads of their own; events order them; a failed launch
//     leaves a sticky error, as on a GPU.
//   - Blocks run on a pool of threads (FAKE_CUDA_THREADS), a block's threads as fibers; every
//     __syncthreads and warp shuffle or vote is checked, and a divergent one fails the launch
//     with the threads and lines involved.
//   - cuBLAS computes the products for real and rejects what cuBLAS rejects; NCCL runs real
//     collectives between ranks in any processes of the machine, through shared memory.
//   - Every call is logged for tests that check how the bindings pass their arguments.
//
// Building the library takes tens of seconds the first time and is cached by its sources
// (GOACCEL_FAKECUDA_CACHE, else the user's cache folder).
//
//	func TestMain(m *testing.M) { fakelib.Main(m, &ctl) } // the package's tests load the fake
//
// Files:
//   - build.go: compiling the library, the emulation's test program and the ThreadSanitizer
//     replay tool into the build cache (the kernel registry generated from the PTX's entries,
//     BuildReplay, WriteSources).
//   - fakelib.go: Names, Build, Control (Open, Log, Reset and the hooks that set errors and
//     the logged launch parameters), Env, Setup, Load and Main.
//   - cmd/fakecuda: the command `make test-cuda-emulated` uses to build the fake, report the
//     kernel coverage and replay captured launches under ThreadSanitizer.
//   - csrc/fake.h: the library's internal interfaces (log, errors, memory, streams).
//   - csrc/driver.cc: the driver API's log, errors, fault reports, test hooks, devices, contexts
//     and memory calls.
//   - csrc/modules.cc: modules, functions and launches (parameters copied as the PTX declares
//     them, pointers and canaries checked, the kernel coverage).
//   - csrc/memory.cc: device memory with guard pages and canaries.
//   - csrc/streams.cc: asynchronous streams, events and the sticky error.
//   - csrc/ptx.h, csrc/ptx.cc: reading the PTX's entries and their parameters.
//   - csrc/cublas.cc: the strided batched products and cuBLAS's argument checks.
//   - csrc/nccl.cc: communicators and collectives over shared memory.
//   - csrc/capture.h, csrc/capture.cc: launches captured for the replay (FAKE_CUDA_CAPTURE).
//   - csrc/replay.cc: the replay tool.
//   - csrc/emu/emu.h: CUDA C++ for the CPU: qualifiers, built-in variables, barriers, warp
//     shuffles and votes, atomics, intrinsics, half-precision types.
//   - csrc/emu/kernel.h: kernels by name (Registrar) and launches (run, parallel_for).
//   - csrc/emu/emu_blocks.cc: the block scheduler (fibers, checked synchronisation, faults).
//   - csrc/emu/emu_pool.cc: the pool of OS threads that share out a launch's blocks.
//   - csrc/emu/emu_test.cc: the test program of the emulation (what CUDA allows and forbids).
package fakelib
