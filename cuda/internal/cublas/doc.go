// Package cublas binds the cuBLAS calls goaccel's matrix products use, at run time
// (libcublas.so.13 or .12 from a CUDA toolkit or PyTorch's pip wheels).
//
//	l, err := cublas.Load()
//	h, err := l.Create()
//	err = h.SetStream(stream)
//	err = h.Sgemm(cublas.GemmBatch{…}) // or Dgemm, GemmEx for bfloat16 and float16
//
// Files:
//   - cublas.go: Library (Load, LoadFrom), Error, Handle (Create, Destroy, SetStream, SetTF32),
//     Op, Type, GemmBatch and the Sgemm, Dgemm and GemmEx calls.
package cublas
