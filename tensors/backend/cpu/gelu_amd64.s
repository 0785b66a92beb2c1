//go:build amd64 && !purego

#include "textflag.h"

// GELU kernels, eight float32 lanes per step (n a positive multiple of 8), built on the exp of
// exp_amd64.s (Cephes' range reduction and polynomial), here with both clamps so that any input
// is finite.
//
// Constants (float32 bits unless noted): 0 lower exp clamp, 4 upper exp clamp, 8 log2(e), 12 0.5,
// 16/20 ln2 split in two, 24..44 the exp polynomial p0..p5, 48 1.0, 52 the exponent bias 127
// (int32), 56 κ = 0.044715, 60 −2·√(2/π), 64 3κ, 68 2·√(2/π), 72 p/√2 of Abramowitz–Stegun 7.1.26
// (p = 0.3275911), 76..92 its a5..a1, 96 1/√(2π), 100 the sign-clearing mask (int32).
DATA geluc<>+0(SB)/4, $0xc2aeac50
DATA geluc<>+4(SB)/4, $0x42b00000
DATA geluc<>+8(SB)/4, $0x3fb8aa3b
DATA geluc<>+12(SB)/4, $0x3f000000
DATA geluc<>+16(SB)/4, $0x3f318000
DATA geluc<>+20(SB)/4, $0xb95e8083
DATA geluc<>+24(SB)/4, $0x39506967
DATA geluc<>+28(SB)/4, $0x3ab743ce
DATA geluc<>+32(SB)/4, $0x3c088908
DATA geluc<>+36(SB)/4, $0x3d2aa9c1
DATA geluc<>+40(SB)/4, $0x3e2aaaaa
DATA geluc<>+44(SB)/4, $0x3f000000
DATA geluc<>+48(SB)/4, $0x3f800000
DATA geluc<>+52(SB)/4, $127
DATA geluc<>+56(SB)/4, $0x3d372713
DATA geluc<>+60(SB)/4, $0xbfcc422a
DATA geluc<>+64(SB)/4, $0x3e095d4f
DATA geluc<>+68(SB)/4, $0x3fcc422a
DATA geluc<>+72(SB)/4, $0x3e6d3388
DATA geluc<>+76(SB)/4, $0x3f87dc22
DATA geluc<>+80(SB)/4, $0xbfba00e3
DATA geluc<>+84(SB)/4, $0x3fb5f0e3
DATA geluc<>+88(SB)/4, $0xbe91a98e
DATA geluc<>+92(SB)/4, $0x3e827906
DATA geluc<>+96(SB)/4, $0x3ecc422a
DATA geluc<>+100(SB)/4, $0x7fffffff
GLOBL geluc<>(SB), RODATA|NOPTR, $104

// SETUP loads the exp constants: Y15 upper clamp, Y14 lower clamp, Y13 log2e, Y12 0.5,
// Y11/Y10 ln2 parts, Y9 1.0, Y8 the bias.
#define SETUP \
	VBROADCASTSS geluc<>+4(SB), Y15; \
	VBROADCASTSS geluc<>+0(SB), Y14; \
	VBROADCASTSS geluc<>+8(SB), Y13; \
	VBROADCASTSS geluc<>+12(SB), Y12; \
	VBROADCASTSS geluc<>+16(SB), Y11; \
	VBROADCASTSS geluc<>+20(SB), Y10; \
	VBROADCASTSS geluc<>+48(SB), Y9; \
	VPBROADCASTD geluc<>+52(SB), Y8

// EXP sets Y3 = e^Y0 (Y0 clobbered; Y1, Y2, Y4, Y5 scratch).
#define EXP \
	VMAXPS Y14, Y0, Y0; \
	VMINPS Y15, Y0, Y0; \
	VMOVAPS Y12, Y1; \
	VFMADD231PS Y13, Y0, Y1; \
	VROUNDPS $1, Y1, Y1; \
	VFNMADD231PS Y11, Y1, Y0; \
	VFNMADD231PS Y10, Y1, Y0; \
	VMULPS Y0, Y0, Y2; \
	VBROADCASTSS geluc<>+24(SB), Y3; \
	VBROADCASTSS geluc<>+28(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VBROADCASTSS geluc<>+32(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VBROADCASTSS geluc<>+36(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VBROADCASTSS geluc<>+40(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VBROADCASTSS geluc<>+44(SB), Y4; \
	VFMADD213PS Y4, Y0, Y3; \
	VFMADD213PS Y0, Y2, Y3; \
	VADDPS Y9, Y3, Y3; \
	VCVTTPS2DQ Y1, Y5; \
	VPADDD Y8, Y5, Y5; \
	VPSLLD $23, Y5, Y5; \
	VMULPS Y5, Y3, Y3

// TANHARG sets Y0 = −2·√(2/π)·(x + κx³) from Y6 = x, Y7 = x² (Y4 scratch).
#define TANHARG \
	VMOVAPS Y9, Y0; \
	VBROADCASTSS geluc<>+56(SB), Y4; \
	VFMADD231PS Y4, Y7, Y0; \
	VMULPS Y6, Y0, Y0; \
	VBROADCASTSS geluc<>+60(SB), Y4; \
	VMULPS Y4, Y0, Y0

// ERFCDF sets Y3 = Φ(x) and Y7 = e^(−x²/2) from Y6 = x, Y7 = x² (Abramowitz–Stegun 7.1.26 for
// erf(|x|/√2), reflected for negative x).
#define ERFCDF \
	VMULPS Y12, Y7, Y0; \
	VXORPS Y1, Y1, Y1; \
	VSUBPS Y0, Y1, Y0; \
	EXP; \
	VMOVAPS Y3, Y7; \
	VBROADCASTSS geluc<>+100(SB), Y2; \
	VANDPS Y2, Y6, Y1; \
	VBROADCASTSS geluc<>+72(SB), Y2; \
	VMOVAPS Y9, Y4; \
	VFMADD231PS Y2, Y1, Y4; \
	VDIVPS Y4, Y9, Y4; \
	VBROADCASTSS geluc<>+76(SB), Y5; \
	VBROADCASTSS geluc<>+80(SB), Y2; \
	VFMADD213PS Y2, Y4, Y5; \
	VBROADCASTSS geluc<>+84(SB), Y2; \
	VFMADD213PS Y2, Y4, Y5; \
	VBROADCASTSS geluc<>+88(SB), Y2; \
	VFMADD213PS Y2, Y4, Y5; \
	VBROADCASTSS geluc<>+92(SB), Y2; \
	VFMADD213PS Y2, Y4, Y5; \
	VMULPS Y4, Y5, Y5; \
	VMULPS Y7, Y5, Y5; \
	VMULPS Y12, Y5, Y5; \
	VSUBPS Y5, Y9, Y1; \
	VXORPS Y2, Y2, Y2; \
	VCMPPS $0x1d, Y2, Y6, Y0; \
	VBLENDVPS Y0, Y1, Y5, Y3

// func geluTanhAVX2(dst, x *float32, n int)
// dst = x·σ(2u), u = √(2/π)(x + κx³): PyTorch's gelu(approximate='tanh'), 0.5x(1 + tanh u).
TEXT ·geluTanhAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SETUP
	PCALIGN $32

tloop:
	VMOVUPS (SI), Y6
	VMULPS Y6, Y6, Y7
	TANHARG
	EXP
	VADDPS Y9, Y3, Y3
	VDIVPS Y3, Y6, Y3
	VMOVUPS Y3, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ tloop
	VZEROUPPER
	RET

// func geluTanhGradAVX2(dx, gy, x *float32, n int)
// dx = gy·(s + 2·√(2/π)·x·s(1−s)(1 + 3κx²)), s = σ(2u).
TEXT ·geluTanhGradAVX2(SB), NOSPLIT, $0-32
	MOVQ dx+0(FP), DI
	MOVQ gy+8(FP), DX
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), CX
	SETUP
	PCALIGN $32

tgloop:
	VMOVUPS (SI), Y6
	VMULPS Y6, Y6, Y7
	TANHARG
	EXP
	VADDPS Y9, Y3, Y3
	VDIVPS Y3, Y9, Y0
	VSUBPS Y0, Y9, Y1
	VMULPS Y0, Y1, Y1
	VMULPS Y6, Y1, Y1
	VMOVAPS Y9, Y2
	VBROADCASTSS geluc<>+64(SB), Y4
	VFMADD231PS Y4, Y7, Y2
	VMULPS Y2, Y1, Y1
	VBROADCASTSS geluc<>+68(SB), Y4
	VMULPS Y4, Y1, Y1
	VADDPS Y0, Y1, Y1
	VMULPS (DX), Y1, Y1
	VMOVUPS Y1, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ tgloop
	VZEROUPPER
	RET

// func geluErfAVX2(dst, x *float32, n int)
// dst = x·Φ(x), Φ the standard normal CDF: PyTorch's exact gelu.
TEXT ·geluErfAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SETUP
	PCALIGN $32

eloop:
	VMOVUPS (SI), Y6
	VMULPS Y6, Y6, Y7
	ERFCDF
	VMULPS Y6, Y3, Y3
	VMOVUPS Y3, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ eloop
	VZEROUPPER
	RET

// func geluErfGradAVX2(dx, gy, x *float32, n int)
// dx = gy·(Φ(x) + x·φ(x)).
TEXT ·geluErfGradAVX2(SB), NOSPLIT, $0-32
	MOVQ dx+0(FP), DI
	MOVQ gy+8(FP), DX
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), CX
	SETUP
	PCALIGN $32

egloop:
	VMOVUPS (SI), Y6
	VMULPS Y6, Y6, Y7
	ERFCDF
	VBROADCASTSS geluc<>+96(SB), Y2
	VMULPS Y2, Y7, Y7
	VFMADD231PS Y7, Y6, Y3
	VMULPS (DX), Y3, Y3
	VMOVUPS Y3, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ egloop
	VZEROUPPER
	RET

// The exact GELU with AVX-512: the same arithmetic sixteen lanes a step, with every constant
// held in a register (Z10–Z31). n is a positive multiple of 16.

// SETUP512 loads Z31 upper clamp, Z30 lower clamp, Z29 log2e, Z28 0.5, Z27/Z26 ln2 parts, Z25
// 1.0, Z24 the bias, Z23..Z18 the exp polynomial p0..p5, Z17 the sign-clearing mask, Z16 p/√2,
// Z15..Z11 a5..a1, Z10 1/√(2π).
#define SETUP512 \
	VBROADCASTSS geluc<>+4(SB), Z31; \
	VBROADCASTSS geluc<>+0(SB), Z30; \
	VBROADCASTSS geluc<>+8(SB), Z29; \
	VBROADCASTSS geluc<>+12(SB), Z28; \
	VBROADCASTSS geluc<>+16(SB), Z27; \
	VBROADCASTSS geluc<>+20(SB), Z26; \
	VBROADCASTSS geluc<>+48(SB), Z25; \
	VPBROADCASTD geluc<>+52(SB), Z24; \
	VBROADCASTSS geluc<>+24(SB), Z23; \
	VBROADCASTSS geluc<>+28(SB), Z22; \
	VBROADCASTSS geluc<>+32(SB), Z21; \
	VBROADCASTSS geluc<>+36(SB), Z20; \
	VBROADCASTSS geluc<>+40(SB), Z19; \
	VBROADCASTSS geluc<>+44(SB), Z18; \
	VBROADCASTSS geluc<>+100(SB), Z17; \
	VBROADCASTSS geluc<>+72(SB), Z16; \
	VBROADCASTSS geluc<>+76(SB), Z15; \
	VBROADCASTSS geluc<>+80(SB), Z14; \
	VBROADCASTSS geluc<>+84(SB), Z13; \
	VBROADCASTSS geluc<>+88(SB), Z12; \
	VBROADCASTSS geluc<>+92(SB), Z11; \
	VBROADCASTSS geluc<>+96(SB), Z10

// EXP512 sets Z3 = e^Z0 (Z0 clobbered; Z1, Z2, Z5 scratch).
#define EXP512 \
	VMAXPS Z30, Z0, Z0; \
	VMINPS Z31, Z0, Z0; \
	VMOVAPS Z28, Z1; \
	VFMADD231PS Z29, Z0, Z1; \
	VRNDSCALEPS $1, Z1, Z1; \
	VFNMADD231PS Z27, Z1, Z0; \
	VFNMADD231PS Z26, Z1, Z0; \
	VMULPS Z0, Z0, Z2; \
	VMOVAPS Z23, Z3; \
	VFMADD213PS Z22, Z0, Z3; \
	VFMADD213PS Z21, Z0, Z3; \
	VFMADD213PS Z20, Z0, Z3; \
	VFMADD213PS Z19, Z0, Z3; \
	VFMADD213PS Z18, Z0, Z3; \
	VFMADD213PS Z0, Z2, Z3; \
	VADDPS Z25, Z3, Z3; \
	VCVTTPS2DQ Z1, Z5; \
	VPADDD Z24, Z5, Z5; \
	VPSLLD $23, Z5, Z5; \
	VMULPS Z5, Z3, Z3

// ERFCDF512 is ERFCDF: Z3 = Φ(x) and Z7 = e^(−x²/2) from Z6 = x, Z7 = x².
#define ERFCDF512 \
	VMULPS Z28, Z7, Z0; \
	VXORPS Z1, Z1, Z1; \
	VSUBPS Z0, Z1, Z0; \
	EXP512; \
	VMOVAPS Z3, Z7; \
	VANDPS Z17, Z6, Z1; \
	VMOVAPS Z25, Z4; \
	VFMADD231PS Z16, Z1, Z4; \
	VDIVPS Z4, Z25, Z4; \
	VMOVAPS Z15, Z5; \
	VFMADD213PS Z14, Z4, Z5; \
	VFMADD213PS Z13, Z4, Z5; \
	VFMADD213PS Z12, Z4, Z5; \
	VFMADD213PS Z11, Z4, Z5; \
	VMULPS Z4, Z5, Z5; \
	VMULPS Z7, Z5, Z5; \
	VMULPS Z28, Z5, Z5; \
	VSUBPS Z5, Z25, Z1; \
	VXORPS Z2, Z2, Z2; \
	VCMPPS $0x1d, Z2, Z6, K1; \
	VBLENDMPS Z1, Z5, K1, Z3

// func geluErfAVX512(dst, x *float32, n int)
TEXT ·geluErfAVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SETUP512
	PCALIGN $32

e5loop:
	VMOVUPS (SI), Z6
	VMULPS Z6, Z6, Z7
	ERFCDF512
	VMULPS Z6, Z3, Z3
	VMOVUPS Z3, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ e5loop
	VZEROUPPER
	RET

// func geluErfGradAVX512(dx, gy, x *float32, n int)
TEXT ·geluErfGradAVX512(SB), NOSPLIT, $0-32
	MOVQ dx+0(FP), DI
	MOVQ gy+8(FP), DX
	MOVQ x+16(FP), SI
	MOVQ n+24(FP), CX
	SETUP512
	PCALIGN $32

eg5loop:
	VMOVUPS (SI), Z6
	VMULPS Z6, Z6, Z7
	ERFCDF512
	VMULPS Z10, Z7, Z7
	VFMADD231PS Z7, Z6, Z3
	VMULPS (DX), Z3, Z3
	VMOVUPS Z3, (DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	SUBQ $16, CX
	JNZ eg5loop
	VZEROUPPER
	RET
