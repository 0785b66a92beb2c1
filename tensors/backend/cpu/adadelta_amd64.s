//go:build amd64 && !purego

#include "textflag.h"

// Adadelta's update, eight float32 lanes a step (n a positive multiple of 8), operation for
// operation as adadeltaChunk's loop: every product and sum rounded on its own (no fused
// multiply-add), the square roots and the quotient correctly rounded as sqrt32 and Go's division
// are, so the results are the same bits.
//
// Constants (adadeltaConsts): 0 LR, 4 Rho, 8 1−Rho, 12 Eps, 16 WeightDecay.

// ADADELTA(decay) is the loop; decay adds WeightDecay·w to the gradient first.
#define ADADELTA(decay) \
	MOVQ w+0(FP), DI \
	MOVQ grad+8(FP), SI \
	MOVQ sq+16(FP), R8 \
	MOVQ acc+24(FP), R9 \
	MOVQ n+32(FP), CX \
	MOVQ c+40(FP), AX \
	VBROADCASTSS 0(AX), Y11 \
	VBROADCASTSS 4(AX), Y12 \
	VBROADCASTSS 8(AX), Y13 \
	VBROADCASTSS 12(AX), Y14 \
	VBROADCASTSS 16(AX), Y15 \
	XORQ BX, BX \
	PCALIGN $32 \
loop: \
	VMOVUPS (SI)(BX*4), Y0 \
	VMOVUPS (DI)(BX*4), Y1 \
	decay \
	VMOVUPS (R8)(BX*4), Y2 \
	VMULPS Y12, Y2, Y2 \
	VMULPS Y13, Y0, Y3 \
	VMULPS Y0, Y3, Y3 \
	VADDPS Y3, Y2, Y2 \
	VMOVUPS Y2, (R8)(BX*4) \
	VADDPS Y14, Y2, Y2 \
	VSQRTPS Y2, Y2 \
	VMOVUPS (R9)(BX*4), Y4 \
	VADDPS Y14, Y4, Y5 \
	VSQRTPS Y5, Y5 \
	VDIVPS Y2, Y5, Y5 \
	VMULPS Y0, Y5, Y5 \
	VMULPS Y12, Y4, Y4 \
	VMULPS Y13, Y5, Y6 \
	VMULPS Y5, Y6, Y6 \
	VADDPS Y6, Y4, Y4 \
	VMOVUPS Y4, (R9)(BX*4) \
	VMULPS Y11, Y5, Y5 \
	VSUBPS Y5, Y1, Y1 \
	VMOVUPS Y1, (DI)(BX*4) \
	ADDQ $8, BX \
	CMPQ BX, CX \
	JLT loop \
	VZEROUPPER \
	RET

#define WEIGHT_DECAY VMULPS Y15, Y1, Y3; VADDPS Y3, Y0, Y0
#define NO_DECAY

// func adadeltaVecDecay(w, grad, sq, acc *float32, n int, c *adadeltaConsts)
TEXT ·adadeltaVecDecay(SB), NOSPLIT, $0-48
	ADADELTA(WEIGHT_DECAY)

// func adadeltaVecPlain(w, grad, sq, acc *float32, n int, c *adadeltaConsts)
TEXT ·adadeltaVecPlain(SB), NOSPLIT, $0-48
	ADADELTA(NO_DECAY)
