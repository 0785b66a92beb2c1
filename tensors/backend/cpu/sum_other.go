//go:build (!amd64 && !arm64) || purego

package cpu

// sumF32 has no vector form on this platform: sumRow's scalar loop adds every element.
func sumF32([]float32) (done int, sum float64) { return 0, 0 }
