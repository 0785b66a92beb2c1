//go:build amd64 && !purego

#include "textflag.h"

// func addF32AVX2(dst, src *float32, n int)
// dst[i] += src[i] for i < n, n a multiple of 32.
TEXT ·addF32AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
loop:
	CMPQ CX, $32
	JLT  done
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VADDPS  (SI), Y0, Y0
	VADDPS  32(SI), Y1, Y1
	VADDPS  64(SI), Y2, Y2
	VADDPS  96(SI), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ    $128, DI
	ADDQ    $128, SI
	SUBQ    $32, CX
	JMP     loop
done:
	VZEROUPPER
	RET

// func add2F32AVX2(dst, dst2, src *float32, n int)
// dst[i] += src[i]; dst2[i] = dst[i] for i < n, n a multiple of 32.
TEXT ·add2F32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ dst2+8(FP), DX
	MOVQ src+16(FP), SI
	MOVQ n+24(FP), CX
loop2:
	CMPQ CX, $32
	JLT  done2
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VADDPS  (SI), Y0, Y0
	VADDPS  32(SI), Y1, Y1
	VADDPS  64(SI), Y2, Y2
	VADDPS  96(SI), Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, 64(DX)
	VMOVUPS Y3, 96(DX)
	ADDQ    $128, DI
	ADDQ    $128, DX
	ADDQ    $128, SI
	SUBQ    $32, CX
	JMP     loop2
done2:
	VZEROUPPER
	RET

// func add2ScaleF32AVX2(dst, dst2, src *float32, n int, k float32)
// dst[i] = (dst[i] + src[i]) * k; dst2[i] = dst[i] for i < n, n a multiple
// of 32. The sum is rounded before the product, as two separate passes would.
TEXT ·add2ScaleF32AVX2(SB), NOSPLIT, $0-36
	MOVQ         dst+0(FP), DI
	MOVQ         dst2+8(FP), DX
	MOVQ         src+16(FP), SI
	MOVQ         n+24(FP), CX
	VBROADCASTSS k+32(FP), Y4
loop3:
	CMPQ CX, $32
	JLT  done3
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VADDPS  (SI), Y0, Y0
	VADDPS  32(SI), Y1, Y1
	VADDPS  64(SI), Y2, Y2
	VADDPS  96(SI), Y3, Y3
	VMULPS  Y4, Y0, Y0
	VMULPS  Y4, Y1, Y1
	VMULPS  Y4, Y2, Y2
	VMULPS  Y4, Y3, Y3
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y0, (DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, 64(DX)
	VMOVUPS Y3, 96(DX)
	ADDQ    $128, DI
	ADDQ    $128, DX
	ADDQ    $128, SI
	SUBQ    $32, CX
	JMP     loop3
done3:
	VZEROUPPER
	RET
