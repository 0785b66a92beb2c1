//go:build (!amd64 && !arm64) || purego

package cpu

// geluF32 has no vector kernel on this platform: the scalar loop does every element.
func geluF32(d, x []float32, tanh bool) int { return 0 }

// geluGradF32 has no vector kernel on this platform.
func geluGradF32(dx, gy, x []float32, tanh bool) int { return 0 }
