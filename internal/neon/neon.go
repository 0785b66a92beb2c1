package neon

import "fmt"

// V is a vector register, V0 to V31.
type V uint32

// The vector registers.
const (
	V0 V = iota
	V1
	V2
	V3
	V4
	V5
	V6
	V7
	V8
	V9
	V10
	V11
	V12
	V13
	V14
	V15
	V16
	V17
	V18
	V19
	V20
	V21
	V22
	V23
	V24
	V25
	V26
	V27
	V28
	V29
	V30
	V31
)

// word is one encoded instruction and its GNU syntax, as a line of Go assembly.
func word(w uint32, gnu string, args ...any) string {
	return fmt.Sprintf("WORD $0x%08x // %s", w, fmt.Sprintf(gnu, args...))
}

// three encodes an instruction of the "three same" class: base | m<<16 | n<<5 | d.
func three(base uint32, mnemonic, arr string, d, n, m V) string {
	return word(base|uint32(m&31)<<16|uint32(n&31)<<5|uint32(d&31), "%s v%d.%s, v%d.%s, v%d.%s", mnemonic, d, arr, n, arr, m, arr)
}

// two encodes a two-register instruction: base | n<<5 | d.
func two(base uint32, mnemonic, darr, narr string, d, n V) string {
	return word(base|uint32(n&31)<<5|uint32(d&31), "%s v%d.%s, v%d.%s", mnemonic, d, darr, n, narr)
}

// FADD is d = n + m on four float32 lanes.
func FADD(d, n, m V) string { return three(0x4e20d400, "fadd", "4s", d, n, m) }

// FADD2D is d = n + m on two float64 lanes.
func FADD2D(d, n, m V) string { return three(0x4e60d400, "fadd", "2d", d, n, m) }

// FSUB2D is d = n − m on two float64 lanes.
func FSUB2D(d, n, m V) string { return three(0x4ee0d400, "fsub", "2d", d, n, m) }

// FMUL2D is d = n · m on two float64 lanes.
func FMUL2D(d, n, m V) string { return three(0x6e60dc00, "fmul", "2d", d, n, m) }

// FMLA2D is d += n · m on two float64 lanes, fused.
func FMLA2D(d, n, m V) string { return three(0x4e60cc00, "fmla", "2d", d, n, m) }

// FMLS2D is d −= n · m on two float64 lanes, fused.
func FMLS2D(d, n, m V) string { return three(0x4ee0cc00, "fmls", "2d", d, n, m) }

// FCVTN narrows n's two float64 lanes to float32 (rounding to nearest) in d's low lanes,
// zeroing the high ones.
func FCVTN(d, n V) string { return two(0x0e616800, "fcvtn", "2s", "2d", d, n) }

// FCVTN2 narrows n's two float64 lanes to float32 in d's high lanes, keeping the low ones.
func FCVTN2(d, n V) string { return two(0x4e616800, "fcvtn2", "4s", "2d", d, n) }

// FSUB is d = n − m on four float32 lanes.
func FSUB(d, n, m V) string { return three(0x4ea0d400, "fsub", "4s", d, n, m) }

// FMUL is d = n · m on four float32 lanes.
func FMUL(d, n, m V) string { return three(0x6e20dc00, "fmul", "4s", d, n, m) }

// FDIV is d = n / m on four float32 lanes.
func FDIV(d, n, m V) string { return three(0x6e20fc00, "fdiv", "4s", d, n, m) }

// FMAX is d = max(n, m) on four float32 lanes (NaN if either is NaN).
func FMAX(d, n, m V) string { return three(0x4e20f400, "fmax", "4s", d, n, m) }

// FMIN is d = min(n, m) on four float32 lanes (NaN if either is NaN).
func FMIN(d, n, m V) string { return three(0x4ea0f400, "fmin", "4s", d, n, m) }

// FMLA is d += n · m on four float32 lanes, fused (one rounding).
func FMLA(d, n, m V) string { return three(0x4e20cc00, "fmla", "4s", d, n, m) }

// FMLS is d −= n · m on four float32 lanes, fused (one rounding).
func FMLS(d, n, m V) string { return three(0x4ea0cc00, "fmls", "4s", d, n, m) }

// FCMGT is d = n > m ? all ones : 0 per float32 lane.
func FCMGT(d, n, m V) string { return three(0x6ea0e400, "fcmgt", "4s", d, n, m) }

// FCMGE is d = n ≥ m ? all ones : 0 per float32 lane.
func FCMGE(d, n, m V) string { return three(0x6e20e400, "fcmge", "4s", d, n, m) }

// FCMEQ is d = n == m ? all ones : 0 per float32 lane (false for NaNs).
func FCMEQ(d, n, m V) string { return three(0x4e20e400, "fcmeq", "4s", d, n, m) }

// BSL is d = (d & n) | (^d & m), bitwise: d is the mask and becomes the result.
func BSL(d, n, m V) string { return three(0x6e601c00, "bsl", "16b", d, n, m) }

// AND is d = n & m, bitwise.
func AND(d, n, m V) string { return three(0x4e201c00, "and", "16b", d, n, m) }

// ORR is d = n | m, bitwise.
func ORR(d, n, m V) string { return three(0x4ea01c00, "orr", "16b", d, n, m) }

// BIC is d = n &^ m on all 128 bits.
func BIC(d, n, m V) string { return three(0x4e601c00, "bic", "16b", d, n, m) }

// EOR is d = n ^ m, bitwise.
func EOR(d, n, m V) string { return three(0x6e201c00, "eor", "16b", d, n, m) }

// CMHI is d = n > m ? all ones : 0 per 32-bit lane, unsigned.
func CMHI(d, n, m V) string { return three(0x6ea03400, "cmhi", "4s", d, n, m) }

// MOV is d = n (all 128 bits).
func MOV(d, n V) string {
	return word(0x4ea01c00|uint32(n&31)<<16|uint32(n&31)<<5|uint32(d&31), "mov v%d.16b, v%d.16b", d, n)
}

// ADD is d = n + m on four int32 lanes.
func ADD(d, n, m V) string { return three(0x4ea08400, "add", "4s", d, n, m) }

// SUB is d = n − m on four int32 lanes.
func SUB(d, n, m V) string { return three(0x6ea08400, "sub", "4s", d, n, m) }

// FADDP is the pairwise sum of n and m's float32 lanes: d = {n0+n1, n2+n3, m0+m1, m2+m3}.
func FADDP(d, n, m V) string { return three(0x6e20d400, "faddp", "4s", d, n, m) }

// FMAXP is the pairwise maximum of n and m's float32 lanes.
func FMAXP(d, n, m V) string { return three(0x6e20f400, "fmaxp", "4s", d, n, m) }

// FSQRT is d = √n on four float32 lanes, correctly rounded.
func FSQRT(d, n V) string { return two(0x6ea1f800, "fsqrt", "4s", "4s", d, n) }

// FNEG is d = −n on four float32 lanes.
func FNEG(d, n V) string { return two(0x6ea0f800, "fneg", "4s", "4s", d, n) }

// FABS is d = |n| on four float32 lanes.
func FABS(d, n V) string { return two(0x4ea0f800, "fabs", "4s", "4s", d, n) }

// FRINTM is d = floor(n) on four float32 lanes.
func FRINTM(d, n V) string { return two(0x4e219800, "frintm", "4s", "4s", d, n) }

// FRINTN is n rounded to the nearest integer, ties to even, on four float32 lanes.
func FRINTN(d, n V) string { return two(0x4e218800, "frintn", "4s", "4s", d, n) }

// FCVTZS is d = int32(n), truncated toward zero, on four lanes.
func FCVTZS(d, n V) string { return two(0x4ea1b800, "fcvtzs", "4s", "4s", d, n) }

// SCVTF is d = float32(n) from four int32 lanes.
func SCVTF(d, n V) string { return two(0x4e21d800, "scvtf", "4s", "4s", d, n) }

// FCVTL widens n's low two float32 lanes to float64.
func FCVTL(d, n V) string { return two(0x0e617800, "fcvtl", "2d", "2s", d, n) }

// FCVTL2 widens n's high two float32 lanes to float64.
func FCVTL2(d, n V) string { return two(0x4e617800, "fcvtl2", "2d", "4s", d, n) }

// FMAXV is the largest of n's four float32 lanes, in d's lane 0 (NaN if any is NaN).
func FMAXV(d, n V) string {
	return word(0x6e30f800|uint32(n&31)<<5|uint32(d&31), "fmaxv s%d, v%d.4s", d, n)
}

// FADDP2D is the sum of n's two float64 lanes, in d's lane 0.
func FADDP2D(d, n V) string {
	return word(0x7e70d800|uint32(n&31)<<5|uint32(d&31), "faddp d%d, v%d.2d", d, n)
}

// FADDPS is the sum of n's two low float32 lanes, in d's lane 0.
func FADDPS(d, n V) string {
	return word(0x7e30d800|uint32(n&31)<<5|uint32(d&31), "faddp s%d, v%d.2s", d, n)
}

// byElem encodes a float32 by-element instruction: m's lane i (m any of
// V0–V31, i 0–3) combined with every lane of n.
func byElem(base uint32, mnemonic string, d, n, m V, i int) string {
	if i < 0 || i > 3 {
		panic(fmt.Sprintf("neon: lane %d of a 4s register", i))
	}
	h, l := uint32(i>>1), uint32(i&1)
	w := base | l<<21 | uint32(m&31)<<16 | h<<11 | uint32(n&31)<<5 | uint32(d&31)
	return word(w, "%s v%d.4s, v%d.4s, v%d.s[%d]", mnemonic, d, n, m, i)
}

// FMLAElem is d += n · m[i] on four float32 lanes, fused.
func FMLAElem(d, n, m V, i int) string { return byElem(0x4f801000, "fmla", d, n, m, i) }

// FMULElem is d = n · m[i] on four float32 lanes.
func FMULElem(d, n, m V, i int) string { return byElem(0x4f809000, "fmul", d, n, m, i) }

// SHL is d = n << shift on four int32 lanes.
func SHL(d, n V, shift int) string {
	if shift < 0 || shift > 31 {
		panic(fmt.Sprintf("neon: shift %d of a 32-bit lane", shift))
	}
	return word(0x4f205400|uint32(shift)<<16|uint32(n&31)<<5|uint32(d&31), "shl v%d.4s, v%d.4s, #%d", d, n, shift)
}

// USHR is d = n >> shift (logical) on four 32-bit lanes.
func USHR(d, n V, shift int) string {
	if shift < 1 || shift > 32 {
		panic(fmt.Sprintf("neon: shift %d of a 32-bit lane", shift))
	}
	return word(0x6f200400|uint32(64-shift)<<16|uint32(n&31)<<5|uint32(d&31), "ushr v%d.4s, v%d.4s, #%d", d, n, shift)
}

// SSHR is d = n >> shift (arithmetic: the sign bit shifted in) on four int32 lanes.
func SSHR(d, n V, shift int) string {
	if shift < 1 || shift > 32 {
		panic(fmt.Sprintf("neon: shift %d of a 32-bit lane", shift))
	}
	return word(0x4f200400|uint32(64-shift)<<16|uint32(n&31)<<5|uint32(d&31), "sshr v%d.4s, v%d.4s, #%d", d, n, shift)
}

// XTN narrows n's four 32-bit lanes to 16 bits (their low halves), in d's low 64 bits.
func XTN(d, n V) string { return two(0x0e612800, "xtn", "4h", "4s", d, n) }

// XTN2 narrows n's four 32-bit lanes to 16 bits, in d's high 64 bits.
func XTN2(d, n V) string { return two(0x4e612800, "xtn2", "8h", "4s", d, n) }

// DUP is d = n's lane i in all four float32 lanes.
func DUP(d, n V, i int) string {
	if i < 0 || i > 3 {
		panic(fmt.Sprintf("neon: lane %d of a 4s register", i))
	}
	return word(0x4e000400|uint32(i<<3|4)<<16|uint32(n&31)<<5|uint32(d&31), "dup v%d.4s, v%d.s[%d]", d, n, i)
}

// MOVI0 sets all of d to zero.
func MOVI0(d V) string { return word(0x6f00e400|uint32(d&31), "movi v%d.2d, #0", d) }

// STNPQ stores the 128-bit registers t and t2 to [xn+offset] and [xn+offset+16] with a
// non-temporal hint (xn is Go's Rn, 0–30; offset a multiple of 16 in −1024..1008). Go's
// assembler has FSTPQ, the plain pair store, but no STNP.
func STNPQ(t, t2 V, xn, offset int) string {
	if xn < 0 || xn > 30 {
		panic(fmt.Sprintf("neon: base register x%d", xn))
	}
	if offset%16 != 0 || offset < -1024 || offset > 1008 {
		panic(fmt.Sprintf("neon: pair offset %d (a multiple of 16 in -1024..1008)", offset))
	}
	imm7 := uint32(offset/16) & 0x7f
	w := 0xac000000 | imm7<<15 | uint32(t2&31)<<10 | uint32(xn)<<5 | uint32(t&31)
	return word(w, "stnp q%d, q%d, [x%d, #%d]", t, t2, xn, offset)
}
