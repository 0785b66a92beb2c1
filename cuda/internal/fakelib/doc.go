// Package fakelib builds, for tests, a stand-in for NVIDIA's libraries (libcuda.so.1,
// libcublas.so, libnccl.so.2) from csrc/fakecuda.c with the C compiler, so the purego bindings
// can be exercised on machines without a GPU: memory is host memory, cuBLAS products are naive
// loops, NCCL has one rank, kernel launches are recorded but not run, and every call is logged.
//
//	func TestMain(m *testing.M) { fakelib.Main(m, &ctl) } // the package's tests load the fake
//
// Files:
//   - csrc/fakecuda.c: the fake libraries' C source (embedded).
//   - fakelib.go: Names, Build, Control (Open, Log, Reset and the hooks that set errors and
//     launch parameters), Env, Setup, Load and Main.
package fakelib
