//go:build (!amd64 && !arm64) || purego

package cpu

import "unsafe"

// haveStreamingStores is false: this platform stores every output through the cache.
const haveStreamingStores = false

// haveFillF32 is false: fillRow fills by doubling.
const haveFillF32 = false

func copyNTF32(d, s *float32, n int) { copy(unsafe.Slice(d, n), unsafe.Slice(s, n)) }

func sfence() {}

func fillF32(d *float32, v float32, n int) {
	s := unsafe.Slice(d, n)
	for i := range s {
		s[i] = v
	}
}
