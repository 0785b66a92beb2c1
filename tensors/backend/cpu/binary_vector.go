//go:build (amd64 || arm64) && !purego

package cpu

// Binary's float32 kernels, d = a op b and d = a op s for n elements: binary_amd64.s (AVX2, n a
// positive multiple of 8) and kernels_arm64.s (NEON, a positive multiple of 4), the scalar
// loop's operation on each lane; vecF32 (binary_amd64.go, binary_arm64.go) picks among them.

//go:noescape
func addVVF32(d, a, b *float32, n int)

//go:noescape
func addVSF32(d, a *float32, s float32, n int)

//go:noescape
func subVVF32(d, a, b *float32, n int)

//go:noescape
func subVSF32(d, a *float32, s float32, n int)

//go:noescape
func mulVVF32(d, a, b *float32, n int)

//go:noescape
func mulVSF32(d, a *float32, s float32, n int)

//go:noescape
func divVVF32(d, a, b *float32, n int)

//go:noescape
func divVSF32(d, a *float32, s float32, n int)
