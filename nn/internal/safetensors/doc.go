// Package safetensors reads and writes the safetensors file format at the byte level: an unsigned
// 64-bit little-endian header length, a JSON header naming each tensor's dtype, shape and byte range,
// then the raw little-endian tensor data. It matches the reference (Rust) implementation's layout:
// "__metadata__" first, tensors ordered by dtype size (largest first) then name, and the header padded
// with spaces to a multiple of 8 bytes so every tensor's data is aligned.
//
//	err := safetensors.Encode(w, []safetensors.Entry{{Name: "w", DType: "F32", Shape: []int{2}, Data: raw}}, nil)
//	entries, metadata, err := safetensors.Decode(b)
//
// Files:
//   - format.go: MaxHeaderSize, Entry, DTypeSize, Encode and Decode.
package safetensors
