// Package lib finds NVIDIA's shared libraries at run time and binds their symbols without cgo
// (github.com/ebitengine/purego). A missing library or symbol is an error that names what was
// looked for and where; nothing here panics.
//
// Each library is tried through the system loader first, then in each folder of Finder.Dirs:
// GOACCEL_CUDA_LIBRARY_PATH (EnvPath, which also skips the system loader), LD_LIBRARY_PATH,
// /usr/local/cuda*/lib64 (newest version first, by number), the driver's folders and the
// nvidia/*/lib folders of pip-installed CUDA wheels (PyTorch's) in the Python environments
// around: $VIRTUAL_ENV, $CONDA_PREFIX, the sys.prefix of the python3 on PATH (run only when the
// other folders lack the library), ~/.local and the system's.
//
//	l, err := lib.Open(lib.CUBLAS) // cuBLASLt first, from the same folder
//	err = l.Bind(&fns)              // struct fields tagged with symbol names
//
// Files:
//   - cstring.go: CString, a NUL-terminated C string copied into Go.
//   - dl_unix.go, dl_windows.go: the system's loader (dlopen and dlsym through purego;
//     LoadLibrary and GetProcAddress). Open refuses off Linux, where goaccel has no GPU path.
//   - lib.go: Spec and the libraries goaccel loads (Driver, CUBLAS, CUBLASLt, NCCL), EnvPath,
//     Finder, Open, ErrNotFound and Library (Sym, Bind).
package lib
