//go:build amd64 && !purego

#include "textflag.h"

// Constants of expShiftSumAVX2 (float32 bit patterns): lower clamp, log2(e), 0.5, ln2 split
// in two, the Cephes expf polynomial p0..p5, 1.0, and the exponent bias 127 (int32).
DATA expc<>+0(SB)/4, $0xc2aeac50
DATA expc<>+4(SB)/4, $0x3fb8aa3b
DATA expc<>+8(SB)/4, $0x3f000000
DATA expc<>+12(SB)/4, $0x3f318000
DATA expc<>+16(SB)/4, $0xb95e8083
DATA expc<>+20(SB)/4, $0x39506967
DATA expc<>+24(SB)/4, $0x3ab743ce
DATA expc<>+28(SB)/4, $0x3c088908
DATA expc<>+32(SB)/4, $0x3d2aa9c1
DATA expc<>+36(SB)/4, $0x3e2aaaaa
DATA expc<>+40(SB)/4, $0x3f000000
DATA expc<>+44(SB)/4, $0x3f800000
DATA expc<>+48(SB)/4, $127
GLOBL expc<>(SB), RODATA|NOPTR, $52

// func expShiftSumAVX2(dst, src *float32, n int, shift float32) float32
// dst[i] = exp(src[i] - shift) for i < n (n a positive multiple of 8, src[i] - shift <= 0);
// returns the sum of the results.
TEXT ·expShiftSumAVX2(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS shift+24(FP), Y15
	VBROADCASTSS expc<>+0(SB), Y14  // lo
	VBROADCASTSS expc<>+4(SB), Y13  // log2e
	VBROADCASTSS expc<>+8(SB), Y12  // 0.5
	VBROADCASTSS expc<>+12(SB), Y11 // c1
	VBROADCASTSS expc<>+16(SB), Y10 // c2
	VBROADCASTSS expc<>+44(SB), Y9  // 1.0
	VPBROADCASTD expc<>+48(SB), Y8  // 127
	VXORPS Y7, Y7, Y7               // running sum

	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0              // x = src - shift
	VMAXPS Y14, Y0, Y0              // x = max(x, lo)
	VMOVAPS Y12, Y1
	VFMADD231PS Y13, Y0, Y1         // fx = x*log2e + 0.5
	VROUNDPS $1, Y1, Y1             // fx = floor(fx)
	VFNMADD231PS Y11, Y1, Y0        // x -= fx*c1
	VFNMADD231PS Y10, Y1, Y0        // x -= fx*c2
	VMULPS Y0, Y0, Y2               // z = x*x
	VBROADCASTSS expc<>+20(SB), Y3  // y = p0
	VBROADCASTSS expc<>+24(SB), Y4
	VFMADD213PS Y4, Y0, Y3          // y = y*x + p1
	VBROADCASTSS expc<>+28(SB), Y4
	VFMADD213PS Y4, Y0, Y3
	VBROADCASTSS expc<>+32(SB), Y4
	VFMADD213PS Y4, Y0, Y3
	VBROADCASTSS expc<>+36(SB), Y4
	VFMADD213PS Y4, Y0, Y3
	VBROADCASTSS expc<>+40(SB), Y4
	VFMADD213PS Y4, Y0, Y3          // y = y*x + p5
	VFMADD213PS Y0, Y2, Y3          // y = y*z + x
	VADDPS Y9, Y3, Y3               // y += 1
	VCVTTPS2DQ Y1, Y5               // n = int(fx)
	VPADDD Y8, Y5, Y5
	VPSLLD $23, Y5, Y5              // 2^n as float bits
	VMULPS Y5, Y3, Y3
	VMOVUPS Y3, (DI)
	VADDPS Y3, Y7, Y7
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop

	VEXTRACTF128 $1, Y7, X6
	VADDPS X6, X7, X7
	VHADDPS X7, X7, X7
	VHADDPS X7, X7, X7
	VZEROUPPER
	MOVSS X7, ret+32(FP)
	RET

// func maxF32AVX2(src *float32, n int) float32
// n is a positive multiple of 8. A NaN lane may be dropped (VMAXPS keeps its second operand),
// as the scalar loop drops NaNs after the first element; softmax of such a row is NaN either way.
TEXT ·maxF32AVX2(SB), NOSPLIT, $0-20
	MOVQ src+0(FP), SI
	MOVQ n+8(FP), CX
	VMOVUPS (SI), Y0
	ADDQ $32, SI
	SUBQ $8, CX
	JZ reduce
	PCALIGN $32

maxloop:
	VMAXPS (SI), Y0, Y0
	ADDQ $32, SI
	SUBQ $8, CX
	JNZ maxloop
reduce:
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4E, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xB1, X0, X1
	VMAXPS X1, X0, X0
	VZEROUPPER
	MOVSS X0, ret+16(FP)
	RET
