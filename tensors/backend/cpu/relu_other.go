//go:build (!amd64 && !arm64) || purego

package cpu

// reluVec has no vector kernel on this platform: reluF32's loop does every element.
func reluVec(d, x []float32) int { return 0 }

// reluGradVec has no vector kernel on this platform.
func reluGradVec(dx, gy, y []float32) int { return 0 }
