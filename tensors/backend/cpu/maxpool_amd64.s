//go:build amd64 && !purego

#include "textflag.h"

// MaxPool2d's 2×2 windows of stride 2 with AVX-512, sixteen outputs a round: a round reads 32
// floats of two input rows (masked at a row's end, so any width works), splits each row into its
// even and odd columns, and compares a window's four values in maxPoolPlane's order with its
// rule (a value wins when it is greater than the best so far or a NaN), so the results and
// indices are maxPool2x2's, bit for bit.

// maxPoolEven and maxPoolOdd pick the even and odd lanes of two registers (VPERMT2PS); the
// even ones are also each output lane's column offset, 2·lane. maxPoolMasks[n], n = 0…16
// outputs in a round: the outputs' mask, then the two input registers' masks (2n floats).
DATA maxPoolEven<>+0(SB)/4, $0x0
DATA maxPoolEven<>+4(SB)/4, $0x2
DATA maxPoolEven<>+8(SB)/4, $0x4
DATA maxPoolEven<>+12(SB)/4, $0x6
DATA maxPoolEven<>+16(SB)/4, $0x8
DATA maxPoolEven<>+20(SB)/4, $0xa
DATA maxPoolEven<>+24(SB)/4, $0xc
DATA maxPoolEven<>+28(SB)/4, $0xe
DATA maxPoolEven<>+32(SB)/4, $0x10
DATA maxPoolEven<>+36(SB)/4, $0x12
DATA maxPoolEven<>+40(SB)/4, $0x14
DATA maxPoolEven<>+44(SB)/4, $0x16
DATA maxPoolEven<>+48(SB)/4, $0x18
DATA maxPoolEven<>+52(SB)/4, $0x1a
DATA maxPoolEven<>+56(SB)/4, $0x1c
DATA maxPoolEven<>+60(SB)/4, $0x1e
GLOBL maxPoolEven<>(SB), RODATA|NOPTR, $64
DATA maxPoolOdd<>+0(SB)/4, $0x1
DATA maxPoolOdd<>+4(SB)/4, $0x3
DATA maxPoolOdd<>+8(SB)/4, $0x5
DATA maxPoolOdd<>+12(SB)/4, $0x7
DATA maxPoolOdd<>+16(SB)/4, $0x9
DATA maxPoolOdd<>+20(SB)/4, $0xb
DATA maxPoolOdd<>+24(SB)/4, $0xd
DATA maxPoolOdd<>+28(SB)/4, $0xf
DATA maxPoolOdd<>+32(SB)/4, $0x11
DATA maxPoolOdd<>+36(SB)/4, $0x13
DATA maxPoolOdd<>+40(SB)/4, $0x15
DATA maxPoolOdd<>+44(SB)/4, $0x17
DATA maxPoolOdd<>+48(SB)/4, $0x19
DATA maxPoolOdd<>+52(SB)/4, $0x1b
DATA maxPoolOdd<>+56(SB)/4, $0x1d
DATA maxPoolOdd<>+60(SB)/4, $0x1f
GLOBL maxPoolOdd<>(SB), RODATA|NOPTR, $64
DATA maxPoolMasks<>+0(SB)/2, $0x0
DATA maxPoolMasks<>+2(SB)/2, $0x0
DATA maxPoolMasks<>+4(SB)/2, $0x0
DATA maxPoolMasks<>+6(SB)/2, $0x0
DATA maxPoolMasks<>+8(SB)/2, $0x1
DATA maxPoolMasks<>+10(SB)/2, $0x3
DATA maxPoolMasks<>+12(SB)/2, $0x0
DATA maxPoolMasks<>+14(SB)/2, $0x0
DATA maxPoolMasks<>+16(SB)/2, $0x3
DATA maxPoolMasks<>+18(SB)/2, $0xf
DATA maxPoolMasks<>+20(SB)/2, $0x0
DATA maxPoolMasks<>+22(SB)/2, $0x0
DATA maxPoolMasks<>+24(SB)/2, $0x7
DATA maxPoolMasks<>+26(SB)/2, $0x3f
DATA maxPoolMasks<>+28(SB)/2, $0x0
DATA maxPoolMasks<>+30(SB)/2, $0x0
DATA maxPoolMasks<>+32(SB)/2, $0xf
DATA maxPoolMasks<>+34(SB)/2, $0xff
DATA maxPoolMasks<>+36(SB)/2, $0x0
DATA maxPoolMasks<>+38(SB)/2, $0x0
DATA maxPoolMasks<>+40(SB)/2, $0x1f
DATA maxPoolMasks<>+42(SB)/2, $0x3ff
DATA maxPoolMasks<>+44(SB)/2, $0x0
DATA maxPoolMasks<>+46(SB)/2, $0x0
DATA maxPoolMasks<>+48(SB)/2, $0x3f
DATA maxPoolMasks<>+50(SB)/2, $0xfff
DATA maxPoolMasks<>+52(SB)/2, $0x0
DATA maxPoolMasks<>+54(SB)/2, $0x0
DATA maxPoolMasks<>+56(SB)/2, $0x7f
DATA maxPoolMasks<>+58(SB)/2, $0x3fff
DATA maxPoolMasks<>+60(SB)/2, $0x0
DATA maxPoolMasks<>+62(SB)/2, $0x0
DATA maxPoolMasks<>+64(SB)/2, $0xff
DATA maxPoolMasks<>+66(SB)/2, $0xffff
DATA maxPoolMasks<>+68(SB)/2, $0x0
DATA maxPoolMasks<>+70(SB)/2, $0x0
DATA maxPoolMasks<>+72(SB)/2, $0x1ff
DATA maxPoolMasks<>+74(SB)/2, $0xffff
DATA maxPoolMasks<>+76(SB)/2, $0x3
DATA maxPoolMasks<>+78(SB)/2, $0x0
DATA maxPoolMasks<>+80(SB)/2, $0x3ff
DATA maxPoolMasks<>+82(SB)/2, $0xffff
DATA maxPoolMasks<>+84(SB)/2, $0xf
DATA maxPoolMasks<>+86(SB)/2, $0x0
DATA maxPoolMasks<>+88(SB)/2, $0x7ff
DATA maxPoolMasks<>+90(SB)/2, $0xffff
DATA maxPoolMasks<>+92(SB)/2, $0x3f
DATA maxPoolMasks<>+94(SB)/2, $0x0
DATA maxPoolMasks<>+96(SB)/2, $0xfff
DATA maxPoolMasks<>+98(SB)/2, $0xffff
DATA maxPoolMasks<>+100(SB)/2, $0xff
DATA maxPoolMasks<>+102(SB)/2, $0x0
DATA maxPoolMasks<>+104(SB)/2, $0x1fff
DATA maxPoolMasks<>+106(SB)/2, $0xffff
DATA maxPoolMasks<>+108(SB)/2, $0x3ff
DATA maxPoolMasks<>+110(SB)/2, $0x0
DATA maxPoolMasks<>+112(SB)/2, $0x3fff
DATA maxPoolMasks<>+114(SB)/2, $0xffff
DATA maxPoolMasks<>+116(SB)/2, $0xfff
DATA maxPoolMasks<>+118(SB)/2, $0x0
DATA maxPoolMasks<>+120(SB)/2, $0x7fff
DATA maxPoolMasks<>+122(SB)/2, $0xffff
DATA maxPoolMasks<>+124(SB)/2, $0x3fff
DATA maxPoolMasks<>+126(SB)/2, $0x0
DATA maxPoolMasks<>+128(SB)/2, $0xffff
DATA maxPoolMasks<>+130(SB)/2, $0xffff
DATA maxPoolMasks<>+132(SB)/2, $0xffff
DATA maxPoolMasks<>+134(SB)/2, $0x0
GLOBL maxPoolMasks<>(SB), RODATA|NOPTR, $136

// TAKE(v, off) makes v the best so far (Z4), and off its offset (Z6), in the lanes where v is
// greater than the best or a NaN.
#define TAKE(v, off) \
	VCMPPS $0x1e, Z4, v, K4 \
	VCMPPS $3, v, v, K5 \
	KORW K4, K5, K4 \
	VMOVAPS v, K4, Z4 \
	VMOVDQA32 off, K4, Z6

// func maxPool2x2AVX512(y *float32, arg *int64, x *float32, planes, h, w, oh, ow int)
TEXT ·maxPool2x2AVX512(SB), NOSPLIT, $0-64
	MOVQ y+0(FP), DI
	MOVQ arg+8(FP), R8
	MOVQ x+16(FP), SI
	MOVQ planes+24(FP), R9
	MOVQ h+32(FP), R14
	MOVQ w+40(FP), R11
	MOVQ oh+48(FP), R12
	MOVQ ow+56(FP), R13
	IMULQ R11, R14
	SHLQ $2, R14                 // a plane's bytes
	LEAQ maxPoolMasks<>(SB), R10
	VMOVDQU32 maxPoolEven<>(SB), Z20
	VMOVDQU32 maxPoolOdd<>(SB), Z21
	MOVL $1, AX
	VPBROADCASTD AX, Z23         // offset of a window's second value
	MOVQ R11, AX
	VPBROADCASTD AX, Z24         // its third: the next row
	VPADDD Z23, Z24, Z25         // its fourth

plane:
	MOVQ SI, BX                  // the window row's first input row
	MOVQ R12, CX

row:
	XORQ DX, DX                  // the round's first output column

round:
	MOVQ R13, AX
	SUBQ DX, AX
	CMPQ AX, $16
	JLE  masks
	MOVQ $16, AX

masks:
	KMOVW 0(R10)(AX*8), K1
	KMOVW 2(R10)(AX*8), K2
	KMOVW 4(R10)(AX*8), K3
	LEAQ (BX)(R11*4), AX         // the second input row
	VMOVUPS.Z (BX)(DX*8), K2, Z0
	VMOVUPS.Z 64(BX)(DX*8), K3, Z1
	VMOVUPS.Z (AX)(DX*8), K2, Z2
	VMOVUPS.Z 64(AX)(DX*8), K3, Z3
	VMOVAPS Z0, Z4
	VPERMT2PS Z1, Z20, Z4        // a: top left, the best so far
	VPERMT2PS Z1, Z21, Z0        // b: top right
	VMOVAPS Z2, Z5
	VPERMT2PS Z3, Z20, Z5        // c: bottom left
	VPERMT2PS Z3, Z21, Z2        // d: bottom right
	VPXORD Z6, Z6, Z6            // the best one's offset in its window

	TAKE(Z0, Z23)                // b
	TAKE(Z5, Z24)                // c
	TAKE(Z2, Z25)                // d

	// Indices within the plane: the row's first element, plus 2·column, plus the offset.
	MOVQ BX, AX
	SUBQ SI, AX
	SHRQ $2, AX
	LEAQ (AX)(DX*2), AX
	VPBROADCASTD AX, Z7
	VPADDD Z20, Z7, Z7
	VPADDD Z6, Z7, Z7
	VPMOVSXDQ Y7, Z8
	VEXTRACTI32X8 $1, Z7, Y9
	VPMOVSXDQ Y9, Z9
	KSHIFTRW $8, K1, K6
	VMOVUPS Z4, K1, (DI)(DX*4)
	VMOVDQU64 Z8, K1, (R8)(DX*8)
	VMOVDQU64 Z9, K6, 64(R8)(DX*8)

	ADDQ $16, DX
	CMPQ DX, R13
	JLT  round

	LEAQ (DI)(R13*4), DI
	LEAQ (R8)(R13*8), R8
	LEAQ (BX)(R11*8), BX         // two input rows down
	DECQ CX
	JNZ  row

	ADDQ R14, SI
	DECQ R9
	JNZ  plane
	VZEROUPPER
	RET
