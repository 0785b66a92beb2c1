//go:build (!amd64 && !arm64) || purego

package cpu

import "github.com/goaccel/goaccel/tensors/backend"

// vecF32 has no vector form on this platform: the scalar loops handle every element.
func vecF32(backend.BinaryOp, []float32, []float32, []float32, float32) int { return 0 }
