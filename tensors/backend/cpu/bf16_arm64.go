//go:build arm64 && !purego

package cpu

import "github.com/goaccel/goaccel/internal/half"

//go:noescape
func f32ToBF16NEON(dst *uint16, src *float32, n int)

// f32ToBF16 writes d[i] = half.F32ToBF16(s[i]), eight lanes at a time with NEON
// (kernels_arm64.s).
func f32ToBF16(d []uint16, s []float32) {
	d = d[:len(s)]
	n := len(s) &^ 7
	if n > 0 {
		f32ToBF16NEON(&d[0], &s[0], n)
	}
	for i := n; i < len(s); i++ {
		d[i] = half.F32ToBF16(s[i])
	}
}
