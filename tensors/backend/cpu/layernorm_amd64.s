//go:build amd64 && !purego

#include "textflag.h"

// LayerNorm rows with AVX-512, in float64 as layernorm.go's scalar loops compute them (only the
// order of the row sums differs): eight values per step, n a positive multiple of 8 (16 for the
// deviation sum). Z8 holds the row's mean, Z9 its reciprocal standard deviation.

// hsum adds the eight float64 lanes of Z0 into X0 (Z1 is scratch).
#define HSUM \
	VEXTRACTF64X4 $1, Z0, Y1 \
	VADDPD Y1, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPD X1, X0, X0 \
	VHADDPD X0, X0, X0

// func lnDevF32Vec(x *float32, n int, mu float64) float64: Σ (x[i] − mu)².
TEXT ·lnDevF32Vec(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD mu+16(FP), Z8
	VXORPD Z0, Z0, Z0
	VXORPD Z2, Z2, Z2
	PCALIGN $32

dev_loop:
	VCVTPS2PD (SI), Z4
	VCVTPS2PD 32(SI), Z5
	VSUBPD Z8, Z4, Z4
	VSUBPD Z8, Z5, Z5
	VFMADD231PD Z4, Z4, Z0
	VFMADD231PD Z5, Z5, Z2
	ADDQ $64, SI
	SUBQ $16, CX
	JNZ  dev_loop
	VADDPD Z2, Z0, Z0
	HSUM
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func lnApplyF32Vec(y, x, w, b *float32, n int, mu, rs float64):
// y[i] = float32((x[i]−mu)·rs), times w[i] unless w is nil, plus b[i] unless b is nil.
TEXT ·lnApplyF32Vec(SB), NOSPLIT, $0-56
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ b+24(FP), R9
	MOVQ n+32(FP), CX
	VBROADCASTSD mu+40(FP), Z8
	VBROADCASTSD rs+48(FP), Z9
	XORQ AX, AX
	PCALIGN $32

apply_loop:
	VCVTPS2PD (SI)(AX*1), Z0
	VSUBPD    Z8, Z0, Z0
	VMULPD    Z9, Z0, Z0
	VCVTPD2PS Z0, Y0
	TESTQ     R8, R8
	JEQ       apply_now
	VMULPS    (R8)(AX*1), Y0, Y0

apply_now:
	TESTQ  R9, R9
	JEQ    apply_nob
	VADDPS (R9)(AX*1), Y0, Y0

apply_nob:
	VMOVUPS Y0, (DI)(AX*1)
	ADDQ    $32, AX
	SUBQ    $8, CX
	JNZ     apply_loop
	VZEROUPPER
	RET

// func lnGradSumsF32Vec(gy, x, w, dw, db *float32, n int, mu, rs float64) (sg, sgx float64):
// with x̂ = (x−mu)·rs and ĝ = gy·w, returns Σ ĝ and Σ ĝ·x̂, and adds float32(gy·x̂) to dw and gy
// to db (each unless nil). w must not be nil.
TEXT ·lnGradSumsF32Vec(SB), NOSPLIT, $0-80
	MOVQ gy+0(FP), DX
	MOVQ x+8(FP), SI
	MOVQ w+16(FP), R8
	MOVQ dw+24(FP), R9
	MOVQ db+32(FP), R10
	MOVQ n+40(FP), CX
	VBROADCASTSD mu+48(FP), Z8
	VBROADCASTSD rs+56(FP), Z9
	VXORPD Z10, Z10, Z10
	VXORPD Z11, Z11, Z11
	XORQ AX, AX
	PCALIGN $32

sums_loop:
	VCVTPS2PD   (SI)(AX*1), Z0
	VSUBPD      Z8, Z0, Z0
	VMULPD      Z9, Z0, Z0       // x̂
	VCVTPS2PD   (DX)(AX*1), Z1   // g
	VCVTPS2PD   (R8)(AX*1), Z2
	VMULPD      Z1, Z2, Z2       // ĝ
	VADDPD      Z2, Z10, Z10
	VFMADD231PD Z2, Z0, Z11
	TESTQ       R9, R9
	JEQ         sums_nodw
	VMULPD      Z1, Z0, Z3
	VCVTPD2PS   Z3, Y3
	VADDPS      (R9)(AX*1), Y3, Y3
	VMOVUPS     Y3, (R9)(AX*1)

sums_nodw:
	TESTQ   R10, R10
	JEQ     sums_nodb
	VMOVUPS (DX)(AX*1), Y4
	VADDPS  (R10)(AX*1), Y4, Y4
	VMOVUPS Y4, (R10)(AX*1)

sums_nodb:
	ADDQ $32, AX
	SUBQ $8, CX
	JNZ  sums_loop
	VMOVAPD Z10, Z0
	HSUM
	MOVSD   X0, sg+64(FP)
	VMOVAPD Z11, Z0
	HSUM
	MOVSD   X0, sgx+72(FP)
	VZEROUPPER
	RET

// func lnGradDxF32Vec(dx, gy, x, w *float32, n int, mu, rs, sg, sgx float64):
// dx[i] = float32(rs·(ĝ − sg − x̂·sgx)), sg and sgx already divided by the row length.
TEXT ·lnGradDxF32Vec(SB), NOSPLIT, $0-72
	MOVQ dx+0(FP), DI
	MOVQ gy+8(FP), DX
	MOVQ x+16(FP), SI
	MOVQ w+24(FP), R8
	MOVQ n+32(FP), CX
	VBROADCASTSD mu+40(FP), Z8
	VBROADCASTSD rs+48(FP), Z9
	VBROADCASTSD sg+56(FP), Z10
	VBROADCASTSD sgx+64(FP), Z11
	XORQ AX, AX
	PCALIGN $32

dx_loop:
	VCVTPS2PD    (SI)(AX*1), Z0
	VSUBPD       Z8, Z0, Z0
	VMULPD       Z9, Z0, Z0     // x̂
	VCVTPS2PD    (DX)(AX*1), Z1
	VCVTPS2PD    (R8)(AX*1), Z2
	VMULPD       Z1, Z2, Z2     // ĝ
	VSUBPD       Z10, Z2, Z2
	VFNMADD231PD Z11, Z0, Z2    // ĝ − sg − x̂·sgx
	VMULPD       Z9, Z2, Z2
	VCVTPD2PS    Z2, Y2
	VMOVUPS      Y2, (DI)(AX*1)
	ADDQ         $32, AX
	SUBQ         $8, CX
	JNZ          dx_loop
	VZEROUPPER
	RET
