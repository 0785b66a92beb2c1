//go:build (amd64 || arm64) && !purego

package cpu

import "github.com/goaccel/goaccel/internal/half"

// f32ToBF16 writes d[i] = half.F32ToBF16(s[i]), bf16Lanes at a time with the vector kernel of
// bf16_amd64.go or bf16_arm64.go where haveBF16Vec says, bit for bit the scalar rounding.
func f32ToBF16(d []uint16, s []float32) {
	d = d[:len(s)]
	n := 0
	if haveBF16Vec {
		if n = len(s) &^ (bf16Lanes - 1); n > 0 {
			f32ToBF16Vec(&d[0], &s[0], n)
		}
	}
	for i := n; i < len(s); i++ {
		d[i] = half.F32ToBF16(s[i])
	}
}
