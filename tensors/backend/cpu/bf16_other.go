//go:build (!amd64 && !arm64) || purego

package cpu

import "github.com/goaccel/goaccel/internal/half"

// f32ToBF16 writes d[i] = half.F32ToBF16(s[i]).
func f32ToBF16(d []uint16, s []float32) {
	d = d[:len(s)]
	for i, v := range s {
		d[i] = half.F32ToBF16(v)
	}
}
