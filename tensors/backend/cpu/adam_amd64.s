//go:build amd64 && !purego

#include "textflag.h"

// func adamVec(w, grad, m, v *float32, n int, c *adamConsts)
TEXT ·adamVec(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ c+40(FP), AX
	VBROADCASTSS 0(AX), Y8   // β1
	VBROADCASTSS 4(AX), Y9   // 1−β1
	VBROADCASTSS 8(AX), Y10  // β2
	VBROADCASTSS 12(AX), Y11 // 1−β2
	VBROADCASTSS 16(AX), Y12 // √(1−β2ᵗ)
	VBROADCASTSS 20(AX), Y13 // ε
	VBROADCASTSS 24(AX), Y14 // −step size
	VBROADCASTSS 28(AX), Y15 // shrink
	XORQ BX, BX

	PCALIGN $32

loop:
	CMPQ BX, CX
	JGE  done
	VMOVUPS (SI)(BX*4), Y0   // g
	VMOVUPS (R8)(BX*4), Y1   // m
	VMULPS  Y8, Y1, Y1       // m·β1
	VMULPS  Y9, Y0, Y2       // (1−β1)·g
	VADDPS  Y2, Y1, Y1       // m
	VMOVUPS Y1, (R8)(BX*4)
	VMOVUPS (R9)(BX*4), Y3   // v
	VMULPS  Y10, Y3, Y3      // v·β2
	VMULPS  Y11, Y0, Y4      // (1−β2)·g
	VMULPS  Y0, Y4, Y4       // ·g
	VADDPS  Y4, Y3, Y3       // v
	VMOVUPS Y3, (R9)(BX*4)
	VSQRTPS Y3, Y5           // √v
	VDIVPS  Y12, Y5, Y5      // /√(1−β2ᵗ)
	VADDPS  Y13, Y5, Y5      // +ε
	VDIVPS  Y5, Y1, Y6       // m/denominator
	VMULPS  Y14, Y6, Y6      // ·(−step size)
	VMOVUPS (DI)(BX*4), Y7   // w
	VMULPS  Y15, Y7, Y7      // w·shrink
	VADDPS  Y6, Y7, Y7
	VMOVUPS Y7, (DI)(BX*4)
	ADDQ    $8, BX
	JMP     loop

done:
	VZEROUPPER
	RET
