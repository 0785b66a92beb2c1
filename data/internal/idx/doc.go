// Package idx reads the IDX files MNIST is distributed in (optionally gzip-compressed): a big-endian
// magic number whose low byte is the number of dimensions and whose third byte is the element type
// (0x08 = unsigned byte), one big-endian uint32 per dimension, then the elements.
//
// A file is untrusted input: the sizes its header claims are checked against the file before
// anything is allocated, elements are allocated as they arrive, a gzip stream must end with its
// checksum verified, and nothing may follow the elements.
//
//	f, err := idx.Read(file) // f.Dims [60000 28 28], f.Data the bytes, row-major
//
// Files:
//   - idx.go: File, Read and Encode (for tests).
package idx
