// Package kernelspec writes the goaccel kernelspec (kernel.json) into a
// Jupyter data directory so that Jupyter can start the kernel.
//
//	dir, err := kernelspec.DataDir(kernelspec.Target{User: true})
//	path, err := kernelspec.Install(dir, "/usr/local/bin/goaccel")
//	// path is dir/kernels/goaccel/kernel.json
//
// Files:
//   - spec.go: Name, Spec and New (kernel.json's content), Target, DataDir,
//     SystemDataDir and Install.
package kernelspec
