package cpu

import (
	"unsafe"

	"github.com/goaccel/goaccel/tensors/backend"
)

// Streaming stores. A kernel that writes all of a large buffer whose memory has left the caches
// (backend.Buffer.Cold: the pool hands out a buffer reclaimed from a dropped tensor, or fresh
// memory) stores around them: a write through the cache would first read every line of the
// destination from memory and later write it back, where a non-temporal store writes it once
// and leaves the operands in the cache. Measured here on 4 MB adds (two 4 MB operands in the
// cache, a destination that was not): 182–224 µs through the cache, 87–137 µs streamed; into
// a destination that was in the cache, 83 µs through it and 74–122 µs streamed, so buffers
// released explicitly (warm) keep the cache.

// streamMin is the output size (elements) from which a cold destination is streamed: smaller
// outputs fit in the L2 and L3 caches, which the next op reads them from.
const streamMin = 1 << 18

// streams reports whether a kernel writing all n float32 elements of dst should stream them.
func streams(dst *backend.Buffer, n int) bool {
	return haveStreamingStores && dst.Cold && n >= streamMin && dst.DType == backend.F32
}

// streamTile is the length of the scratch rows streamF32 computes into (8 KB: in the L1 cache).
const streamTile = 2048

// streamHead is how many leading elements of d (not empty) come before its first 32-byte boundary:
// the non-temporal stores write whole aligned lines from there.
func streamHead(d []float32) int {
	return min(len(d), int((32-uintptr(unsafe.Pointer(&d[0]))&31)&31/4))
}

// streamF32 writes d with non-temporal stores: fill(t, off) computes the elements d[off:off+len(t)]
// into t, which is d itself for the unaligned head and tail and a scratch row in the L1 cache for
// the rest, copied out with non-temporal stores.
func streamF32(d []float32, fill func(t []float32, off int)) {
	n := len(d)
	if n == 0 {
		return
	}
	head := streamHead(d)
	if head > 0 {
		fill(d[:head], 0)
	}
	var tile [streamTile]float32
	off := head
	for ; off+32 <= n; off += streamTile {
		m := min(streamTile, (n-off)&^31)
		fill(tile[:m], off)
		copyNTF32(&d[off], &tile[0], m)
		if m < streamTile {
			off += m
			break
		}
	}
	sfence()
	if off < n {
		fill(d[off:], off)
	}
}
