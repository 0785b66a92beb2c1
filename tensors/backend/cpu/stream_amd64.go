//go:build amd64 && !purego

package cpu

// sfence orders the non-temporal stores before it with every store after it (SFENCE): x86's
// non-temporal stores are weakly ordered, unlike its other stores.
func sfence()

// haveStreamingStores reports whether streamF32's non-temporal stores run on this CPU.
var haveStreamingStores = haveAVX2FMA

// haveFillF32 reports whether fillF32's vector stores (AVX) run on this CPU.
var haveFillF32 = haveAVX2FMA
