package cpu

import (
	"math"
	"runtime"
	"testing"
)

// streamSentinel is the bit pattern the stream tests put where a kernel must not write (a NaN no
// arithmetic here produces).
const streamSentinel = 0x7fa5a5a5

// streamEdges are output lengths around the kernels' edges: every length up to three rounds of 32
// lanes past the longest unaligned head, and around one and two of streamF32's scratch tiles.
func streamEdges() []int {
	var ns []int
	for n := range 104 {
		ns = append(ns, n)
	}
	for _, m := range []int{streamTile, 2 * streamTile} {
		for _, k := range []int{-33, -32, -31, -1, 0, 1, 7, 31, 32, 33, 39} {
			ns = append(ns, m+k)
		}
	}
	return ns
}

// guarded returns n float32s that start off elements past an allocation's start (every alignment
// to 32-byte lines, for off 0 to 7), and the whole allocation: d, then 40 elements after it, all
// set to streamSentinel.
func guarded(n, off int) (d, all []float32) {
	all = make([]float32, off+n+40)
	for i := range all {
		all[i] = math.Float32frombits(streamSentinel)
	}
	return all[off : off+n], all
}

// streamInputs returns n float32 values with signed zeros, infinities, a NaN and subnormals among
// them.
func streamInputs(n, seed int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32((i*7+seed)%1000)*0.37 - 3
		switch (i + seed) % 23 {
		case 3:
			x[i] = float32(math.Copysign(0, -1))
		case 5:
			x[i] = float32(math.Inf(1))
		case 11:
			x[i] = math.Float32frombits(1 << 20) // subnormal
		case 17:
			x[i] = float32(math.NaN())
		}
	}
	return x
}

// checkBits fails t where got and want differ in any bit, or where the elements of all outside
// [lo, hi) (what the kernel under test must not write) have lost streamSentinel.
func checkBits(t *testing.T, what string, got, want, all []float32, lo, hi int) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: d[%d] = %v (%#08x), want %v (%#08x)", what, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
	for i := range all {
		if (i < lo || i >= hi) && math.Float32bits(all[i]) != streamSentinel {
			t.Fatalf("%s: element %d of the allocation, outside the written [%d, %d), was overwritten", what, i, lo, hi)
		}
	}
}

// TestStreamingStoresOnArm64 pins that arm64 streams cold outputs (STNP) as amd64 does.
func TestStreamingStoresOnArm64(t *testing.T) {
	if runtime.GOARCH == "arm64" && !haveStreamingStores {
		t.Fatal("haveStreamingStores is false on arm64: cold outputs are stored through the cache")
	}
}

// TestStreamF32MatchesPlainLoop runs streamF32 (its unaligned head and tail in place, the rest
// through scratch tiles and copyNTF32) at every length of streamEdges and every alignment, and
// checks the bits against the plain loop and that nothing around the output is written.
func TestStreamF32MatchesPlainLoop(t *testing.T) {
	for _, n := range streamEdges() {
		x := streamInputs(n, n)
		want := make([]float32, n)
		for i, v := range x {
			want[i] = v*1.5 + 1
		}
		for off := range 8 {
			d, all := guarded(n, off)
			streamF32(d, func(t []float32, o int) {
				for i := range t {
					t[i] = x[o+i]*1.5 + 1
				}
			})
			checkBits(t, "streamF32", d, want, all, off, off+n)
		}
	}
}

// TestFillF32MatchesPlainLoop runs fillF32 on lengths of 32 to 256 (its multiples of 32) at every
// alignment where haveFillF32, and fillRow on every length of streamEdges everywhere.
func TestFillF32MatchesPlainLoop(t *testing.T) {
	for _, v := range []float32{0, float32(math.Copysign(0, -1)), 2.5, float32(math.Inf(-1))} {
		for off := range 8 {
			if haveFillF32 {
				for n := 32; n <= 256; n += 32 {
					d, all := guarded(n, off)
					fillF32(&d[0], v, n)
					want := make([]float32, n)
					for i := range want {
						want[i] = v
					}
					checkBits(t, "fillF32", d, want, all, off, off+n)
				}
			}
			for _, n := range streamEdges() {
				d, all := guarded(n, off)
				fillRow(d, v)
				want := make([]float32, n)
				for i := range want {
					want[i] = v
				}
				checkBits(t, "fillRow", d, want, all, off, off+n)
			}
		}
	}
}
