//go:build !amd64 || purego

package cpu

import "unsafe"

// haveStreamingStores is false: this platform stores every output through the cache.
const haveStreamingStores = false

func copyNTF32(d, s *float32, n int) { copy(unsafe.Slice(d, n), unsafe.Slice(s, n)) }

func sfence() {}
