//go:build (!amd64 && !arm64) || purego

package cpu

import "github.com/goaccel/goaccel/tensors/backend"

// streamVV has no non-temporal kernels on this platform: it computes nothing.
func streamVV(backend.BinaryOp, []float32, []float32, []float32) (head, n int) { return 0, 0 }

// streamVS has no non-temporal kernels on this platform: it computes nothing.
func streamVS(backend.BinaryOp, []float32, []float32, float32) (head, n int) { return 0, 0 }
