//go:build (!amd64 && !arm64) || purego

package cpu

// adadeltaVec has no vector kernel on this platform: adadeltaChunk's loop does every element.
func adadeltaVec(w, g, sq, acc []float32, c *adadeltaConsts) int { return 0 }
