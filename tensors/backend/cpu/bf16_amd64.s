//go:build amd64 && !purego

#include "textflag.h"

// func f32ToBF16AVX512(dst *uint16, src *float32, n int)
// dst[i] = half.F32ToBF16(src[i]) for i < n (n a positive multiple of 16): round to nearest
// even on the bits, (b + 0x7fff + (b>>16)&1) >> 16, and a NaN kept quiet as (b>>16) | 0x40.
TEXT ·f32ToBF16AVX512(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVL $1, AX
	VPBROADCASTD AX, Z10          // 1
	MOVL $0x7fff, AX
	VPBROADCASTD AX, Z11          // rounding bias
	MOVL $0x7fffffff, AX
	VPBROADCASTD AX, Z12          // |b| mask
	MOVL $0x7f800000, AX
	VPBROADCASTD AX, Z13          // +Inf
	MOVL $0x40, AX
	VPBROADCASTD AX, Z14          // quiet bit of a bfloat16 NaN

loop:
	VMOVDQU32 (SI), Z0
	VPSRLD $16, Z0, Z1            // b >> 16
	VPANDD Z10, Z1, Z2            // (b >> 16) & 1
	VPADDD Z11, Z0, Z3
	VPADDD Z2, Z3, Z3
	VPSRLD $16, Z3, Z3            // rounded
	VPANDD Z12, Z0, Z4
	VPCMPUD $6, Z13, Z4, K1       // |b| > +Inf: NaN
	VPORD Z14, Z1, Z5
	VMOVDQU32 Z5, K1, Z3
	VPMOVDW Z3, Y6
	VMOVDQU Y6, (DI)
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $16, CX
	JNZ loop
	VZEROUPPER
	RET
