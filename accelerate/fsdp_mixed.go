package accelerate

import (
	"math"

	"github.com/goaccel/goaccel/internal/half"
)

// packBF16 writes vals rounded to bfloat16 into dst from element at on: element j is the low
// (j even) or high half of dst[j/2]'s bits. The collectives only copy the slots, so the bits
// arrive as they were sent.
func packBF16(dst []float32, at int, vals []float32) {
	for k, v := range vals {
		j := at + k
		bits := math.Float32bits(dst[j/2])
		h := uint32(half.F32ToBF16(v))
		if j%2 == 0 {
			bits = bits&0xffff0000 | h
		} else {
			bits = bits&0x0000ffff | h<<16
		}
		dst[j/2] = math.Float32frombits(bits)
	}
}

// unpackGathered returns an all-gather's recv as float32 values, size per process: recv itself,
// or under bf16 mixed precision the bfloat16 values each process packed, widened.
func (s *sharder) unpackGathered(recv []float32, size int) []float32 {
	if !s.paramBF16 {
		return recv
	}
	per := (size + 1) / 2
	out := make([]float32, s.group*size)
	for r := 0; r < s.group; r++ {
		for j := 0; j < size; j++ {
			bits := math.Float32bits(recv[r*per+j/2])
			if j%2 == 1 {
				bits >>= 16
			}
			out[r*size+j] = half.BF16ToF32(uint16(bits))
		}
	}
	return out
}
