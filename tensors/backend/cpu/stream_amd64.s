//go:build amd64 && !purego

#include "textflag.h"

// func copyNTF32(d, s *float32, n int): d[i] = s[i] with non-temporal stores (d 32-byte aligned,
// n a positive multiple of 32). No fence: streamF32 ends a run of copies with sfence.
TEXT ·copyNTF32(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ n+16(FP), CX
	PCALIGN $32

loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VMOVNTPS Y0, (DI)
	VMOVNTPS Y1, 32(DI)
	VMOVNTPS Y2, 64(DI)
	VMOVNTPS Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $32, CX
	JNZ  loop
	VZEROUPPER
	RET

// func sfence(): orders the non-temporal stores before it with every store after it.
TEXT ·sfence(SB), NOSPLIT, $0-0
	SFENCE
	RET

// func fillF32(d *float32, v float32, n int): d[i] = v for i < n (n a positive multiple of 32),
// through the cache: a filled gradient is read again at once.
TEXT ·fillF32(SB), NOSPLIT, $0-24
	MOVQ         d+0(FP), DI
	VBROADCASTSS v+8(FP), Y0
	MOVQ         n+16(FP), CX
	PCALIGN      $32

fill:
	VMOVUPS Y0, (DI)
	VMOVUPS Y0, 32(DI)
	VMOVUPS Y0, 64(DI)
	VMOVUPS Y0, 96(DI)
	ADDQ    $128, DI
	SUBQ    $32, CX
	JNZ     fill
	VZEROUPPER
	RET
