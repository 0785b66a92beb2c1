//go:build amd64 && !purego

#include "textflag.h"

// Elementwise float32 kernels, 8 lanes per step; n is a positive multiple of 8.

// func addVVF32(d, a, b *float32, n int)
TEXT ·addVVF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VADDPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func addVSF32(d, a *float32, s float32, n int)
TEXT ·addVSF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	VBROADCASTSS s+16(FP), Y1
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func subVVF32(d, a, b *float32, n int)
TEXT ·subVVF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VSUBPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func subVSF32(d, a *float32, s float32, n int)
TEXT ·subVSF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	VBROADCASTSS s+16(FP), Y1
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VSUBPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func mulVVF32(d, a, b *float32, n int)
TEXT ·mulVVF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VMULPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func mulVSF32(d, a *float32, s float32, n int)
TEXT ·mulVSF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	VBROADCASTSS s+16(FP), Y1
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VMULPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func divVVF32(d, a, b *float32, n int)
TEXT ·divVVF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VDIVPS (DX), Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func divVSF32(d, a *float32, s float32, n int)
TEXT ·divVSF32(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	VBROADCASTSS s+16(FP), Y1
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VDIVPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $8, CX
	JNZ loop
	VZEROUPPER
	RET

// func addVVF32NT(d, a, b *float32, n int): d = a + b with non-temporal stores (d 32-byte
// aligned, n a positive multiple of 32), for outputs too large to stay in cache.
TEXT ·addVVF32NT(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	PCALIGN $32

ntloop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VADDPS (DX), Y0, Y0
	VADDPS 32(DX), Y1, Y1
	VADDPS 64(DX), Y2, Y2
	VADDPS 96(DX), Y3, Y3
	VMOVNTPS Y0, (DI)
	VMOVNTPS Y1, 32(DI)
	VMOVNTPS Y2, 64(DI)
	VMOVNTPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $128, DI
	SUBQ $32, CX
	JNZ  ntloop
	SFENCE
	VZEROUPPER
	RET

// func addVVF32x64(d, a, b *float32, n int)
// addVVF32 with AVX-512, 64 lanes per step; n is a positive multiple of 64.
TEXT ·addVVF32x64(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Z0
	VMOVUPS 64(SI), Z1
	VMOVUPS 128(SI), Z2
	VMOVUPS 192(SI), Z3
	VADDPS  (DX), Z0, Z0
	VADDPS  64(DX), Z1, Z1
	VADDPS  128(DX), Z2, Z2
	VADDPS  192(DX), Z3, Z3
	VMOVUPS Z0, (DI)
	VMOVUPS Z1, 64(DI)
	VMOVUPS Z2, 128(DI)
	VMOVUPS Z3, 192(DI)
	ADDQ    $256, SI
	ADDQ    $256, DX
	ADDQ    $256, DI
	SUBQ    $64, CX
	JNZ     loop
	VZEROUPPER
	RET
