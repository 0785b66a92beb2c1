//go:build amd64 && !purego

package cpu

import "github.com/goaccel/goaccel/internal/half"

//go:noescape
func f32ToBF16AVX512(dst *uint16, src *float32, n int)

// f32ToBF16 writes d[i] = half.F32ToBF16(s[i]), sixteen lanes at a time where AVX-512 exists.
func f32ToBF16(d []uint16, s []float32) {
	d = d[:len(s)]
	n := 0
	if haveAVX512 {
		if n = len(s) &^ 15; n > 0 {
			f32ToBF16AVX512(&d[0], &s[0], n)
		}
	}
	for i := n; i < len(s); i++ {
		d[i] = half.F32ToBF16(s[i])
	}
}
