package cpu

import (
	"math"

	"github.com/goaccel/goaccel/internal/half"
)

// roundF16 returns v rounded to the nearest float16 value, as float32. Values whose float16 is
// normal are rounded directly on the float32 bits (ties to even on bit 13); the rest take the
// exact bit conversion.
func roundF16(v float32) float32 {
	b := math.Float32bits(v)
	if e := (b >> 23) & 0xff; e >= 113 && e <= 142 {
		r := (b + 0xfff + (b>>13)&1) &^ 0x1fff
		if (r>>23)&0xff <= 142 {
			return math.Float32frombits(r)
		}
		return math.Float32frombits(b&0x80000000 | 0x7f800000) // rounds past 65504: ±Inf
	}
	return half.F16ToF32(half.F32ToF16(v))
}
