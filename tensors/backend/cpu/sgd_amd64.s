//go:build amd64 && !purego

#include "textflag.h"

// func sgdVec(w, grad, buf *float32, n int, c *sgdConsts)
// sgdChunk's arithmetic, 8 floats at a time, operation for operation (no fused multiply-adds),
// so results are the bits of the scalar loop. c.mode's bits say which terms run: 1 weight
// decay, 2 momentum (buf), 4 first step (buf = g), 8 Nesterov.
TEXT ·sgdVec(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ buf+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ c+32(FP), AX
	VBROADCASTSS 0(AX), Y8  // lr
	VBROADCASTSS 4(AX), Y9  // weight decay
	VBROADCASTSS 8(AX), Y10 // momentum
	VBROADCASTSS 12(AX), Y11 // 1 − dampening
	MOVL 16(AX), DX         // mode
	XORQ BX, BX

	PCALIGN $32

loop:
	CMPQ BX, CX
	JGE  done
	VMOVUPS (SI)(BX*4), Y0 // g
	VMOVUPS (DI)(BX*4), Y1 // w
	TESTL $1, DX
	JEQ   nodecay
	VMULPS Y9, Y1, Y2 // wd·w
	VADDPS Y2, Y0, Y0 // g += wd·w

nodecay:
	TESTL $2, DX
	JEQ   step
	TESTL $4, DX
	JEQ   average
	VMOVAPS Y0, Y3 // b = g
	JMP     stored

average:
	VMOVUPS (R8)(BX*4), Y3
	VMULPS  Y10, Y3, Y3 // b·momentum
	VMULPS  Y11, Y0, Y4 // (1−dampening)·g
	VADDPS  Y4, Y3, Y3

stored:
	VMOVUPS Y3, (R8)(BX*4)
	TESTL   $8, DX
	JEQ     plain
	VMULPS  Y10, Y3, Y4 // momentum·b
	VADDPS  Y4, Y0, Y0  // g += momentum·b
	JMP     step

plain:
	VMOVAPS Y3, Y0 // g = b

step:
	VMULPS  Y8, Y0, Y0 // lr·g
	VSUBPS  Y0, Y1, Y1 // w −= lr·g
	VMOVUPS Y1, (DI)(BX*4)
	ADDQ    $8, BX
	JMP     loop

done:
	VZEROUPPER
	RET
