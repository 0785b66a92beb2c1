//go:build amd64 && !purego

package cpu

//go:noescape
func copyNTF32(d, s *float32, n int)

func sfence()

// haveStreamingStores reports whether streamF32's non-temporal stores run on this CPU.
var haveStreamingStores = haveAVX2FMA
