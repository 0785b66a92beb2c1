//go:build amd64 && !purego

#include "textflag.h"

// Elementwise float32 kernels with non-temporal stores, 32 lanes a round: d must be 32-byte
// aligned and n a positive multiple of 32 (streamVV and streamVS see to both).

// VVNT defines func name(d, a, b *float32, n int): d = a OP b.
#define VVNT(name, OP) \
TEXT name(SB), NOSPLIT, $0-32 \
	MOVQ d+0(FP), DI \
	MOVQ a+8(FP), SI \
	MOVQ b+16(FP), DX \
	MOVQ n+24(FP), CX \
	PCALIGN $32 \
vvloop: \
	VMOVUPS (SI), Y0 \
	VMOVUPS 32(SI), Y1 \
	VMOVUPS 64(SI), Y2 \
	VMOVUPS 96(SI), Y3 \
	OP (DX), Y0, Y0 \
	OP 32(DX), Y1, Y1 \
	OP 64(DX), Y2, Y2 \
	OP 96(DX), Y3, Y3 \
	VMOVNTPS Y0, (DI) \
	VMOVNTPS Y1, 32(DI) \
	VMOVNTPS Y2, 64(DI) \
	VMOVNTPS Y3, 96(DI) \
	ADDQ $128, SI \
	ADDQ $128, DX \
	ADDQ $128, DI \
	SUBQ $32, CX \
	JNZ  vvloop \
	SFENCE \
	VZEROUPPER \
	RET

// VSNT defines func name(d, a *float32, s float32, n int): d = a OP s.
#define VSNT(name, OP) \
TEXT name(SB), NOSPLIT, $0-32 \
	MOVQ d+0(FP), DI \
	MOVQ a+8(FP), SI \
	VBROADCASTSS s+16(FP), Y4 \
	MOVQ n+24(FP), CX \
	PCALIGN $32 \
vsloop: \
	VMOVUPS (SI), Y0 \
	VMOVUPS 32(SI), Y1 \
	VMOVUPS 64(SI), Y2 \
	VMOVUPS 96(SI), Y3 \
	OP Y4, Y0, Y0 \
	OP Y4, Y1, Y1 \
	OP Y4, Y2, Y2 \
	OP Y4, Y3, Y3 \
	VMOVNTPS Y0, (DI) \
	VMOVNTPS Y1, 32(DI) \
	VMOVNTPS Y2, 64(DI) \
	VMOVNTPS Y3, 96(DI) \
	ADDQ $128, SI \
	ADDQ $128, DI \
	SUBQ $32, CX \
	JNZ  vsloop \
	SFENCE \
	VZEROUPPER \
	RET

// func subVVF32NT(d, a, b *float32, n int)
VVNT(·subVVF32NT, VSUBPS)

// func mulVVF32NT(d, a, b *float32, n int)
VVNT(·mulVVF32NT, VMULPS)

// func addVSF32NT(d, a *float32, s float32, n int)
VSNT(·addVSF32NT, VADDPS)

// func mulVSF32NT(d, a *float32, s float32, n int)
VSNT(·mulVSF32NT, VMULPS)
