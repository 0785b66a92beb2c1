package tensors

import "github.com/goaccel/goaccel/tensors/backend"

// Host ingress and egress. These are the only places in package tensors that read or write a
// buffer's elements directly, and they do so only for buffers of the CPU backend (host memory):
// values enter through New and the generators, leave through Data32, Float32s and friends; a
// device's buffers cross with its Transfer (Upload, Download) first.

func hostF32(b *backend.Buffer) []float32 { return b.F32 }
func hostF64(b *backend.Buffer) []float64 { return b.F64 }
func hostI64(b *backend.Buffer) []int64   { return b.I64 }
