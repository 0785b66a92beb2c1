//go:build amd64 && !purego

package cpu

//go:noescape
func copyNTF32(d, s *float32, n int)

func sfence()

// fillF32 sets d[i] = v for i < n, n a positive multiple of 32. Needs AVX.
//
//go:noescape
func fillF32(d *float32, v float32, n int)

// haveStreamingStores reports whether streamF32's non-temporal stores run on this CPU.
var haveStreamingStores = haveAVX2FMA

// haveFillF32 reports whether fillF32's vector stores run on this CPU.
var haveFillF32 = haveAVX2FMA
