//go:build amd64 && !purego

#include "textflag.h"

// ReLU kernels, 32 float32 lanes a round (n a positive multiple of 32), on the bits as
// reluF32 and reluGradF32 do: the same results bit for bit, NaNs and signed zeros included.

// func reluBitsF32(d, x *float32, n int): d = x &^ (x >> 31), the sign's arithmetic shift.
TEXT ·reluBitsF32(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	PCALIGN $32
reluloop:
	VMOVDQU (SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VPSRAD $31, Y0, Y4
	VPSRAD $31, Y1, Y5
	VPSRAD $31, Y2, Y6
	VPSRAD $31, Y3, Y7
	VPANDN Y0, Y4, Y0
	VPANDN Y1, Y5, Y1
	VPANDN Y2, Y6, Y2
	VPANDN Y3, Y7, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JNZ reluloop
	VZEROUPPER
	RET

// func reluGradBitsF32(dx, gy, y *float32, n int): dx = gy &^ ((y − 1) >> 31) on the bits: y is
// +0 or positive, and its bits less one are negative exactly when it is +0.
TEXT ·reluGradBitsF32(SB), NOSPLIT, $0-32
	MOVQ dx+0(FP), DI
	MOVQ gy+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	VPCMPEQD Y15, Y15, Y15
	PCALIGN $32
gradloop:
	VPADDD (DX), Y15, Y4
	VPADDD 32(DX), Y15, Y5
	VPADDD 64(DX), Y15, Y6
	VPADDD 96(DX), Y15, Y7
	VPSRAD $31, Y4, Y4
	VPSRAD $31, Y5, Y5
	VPSRAD $31, Y6, Y6
	VPSRAD $31, Y7, Y7
	VPANDN (SI), Y4, Y0
	VPANDN 32(SI), Y5, Y1
	VPANDN 64(SI), Y6, Y2
	VPANDN 96(SI), Y7, Y3
	VMOVDQU Y0, (DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $32, CX
	JNZ gradloop
	VZEROUPPER
	RET
