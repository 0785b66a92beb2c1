package half

import "math"

// F32ToBF16 rounds f to bfloat16 bits, round-to-nearest-even; NaNs stay NaN (quiet).
func F32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 {
		return uint16(b>>16) | 0x40
	}
	return uint16((b + 0x7fff + (b>>16)&1) >> 16)
}

// BF16ToF32 widens bfloat16 bits to float32 (exact).
func BF16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// F32ToF16 rounds f to IEEE half-precision bits, round-to-nearest-even, with subnormals,
// overflow to ±Inf and NaN preserved (quiet).
func F32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff {
		if man != 0 {
			return sign | 0x7e00 | uint16(man>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 112 // rebiased exponent for half
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 {
		if exp == 0 {
			return sign // float32 subnormals are far below half's range
		}
		m := man | 0x800000
		shift := uint32(14 - e)
		if shift > 24 {
			return sign
		}
		k := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && k&1 == 1) {
			k++
		}
		return sign | uint16(k)
	}
	k := uint32(e)<<10 | man>>13
	rem := man & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && k&1 == 1) {
		k++
	}
	return sign | uint16(k)
}

// F16ToF32 widens half-precision bits to float32 (exact).
func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0:
		v := float32(man) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}
