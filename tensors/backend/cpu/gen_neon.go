//go:build ignore

// gen_neon writes kernels_arm64.s, the NEON forms of the vector kernels of amd64's
// *_amd64.s: the Adam, SGD and Adadelta updates, Binary's four arithmetic ops, ReLU and its
// gradient, the float64 sum, the softmax row's exp and maximum, GELU and its gradient, float32
// to bfloat16, LayerNorm's rows (gen_layernorm_neon.go) and the streaming stores
// (gen_stream_neon.go). Run with `go generate ./tensors/backend/cpu/`.
//
// Each kernel does the amd64 kernel's arithmetic in the same order, so where that one gives the
// scalar loop's bits (the optimizer updates, Binary, ReLU, bfloat16) this one does too, and
// where it has its own summation order (sumF32's float64 lanes, expShiftSum's float32 ones)
// this one keeps AVX2's: four lanes of NEON are half a YMM register, and the halves are added
// as AVX2's are. Go's assembler lacks NEON's floating-point instructions (and a few integer
// ones, SSHR and BIC); package neon encodes them as WORDs with their GNU syntax.
package main

import (
	"bytes"
	"fmt"
	"math"
	"os"

	"github.com/goaccel/goaccel/internal/neon"
)

var out bytes.Buffer

func p(format string, args ...any) { fmt.Fprintf(&out, "\t"+format+"\n", args...) }
func label(l string)               { fmt.Fprintf(&out, "%s:\n", l) }

func text(name, sig string, args int) {
	fmt.Fprintf(&out, "\n// func %s%s\n", name, sig)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, args)
}

// bcast sets every lane of v to the 32-bit pattern bits.
func bcast(v neon.V, bits uint32) {
	p("MOVW $0x%08x, R9", bits)
	p("VDUP R9, V%d.S4", v)
}

func f32(x float64) uint32 { return math.Float32bits(float32(x)) }

// adam writes adamVec: adamUpdate's arithmetic, four lanes a step, operation for operation.
func adam() {
	text("adamVec", "(w, grad, m, v *float32, n int, c *adamConsts)", 48)
	p("MOVD w+0(FP), R0")
	p("MOVD grad+8(FP), R1")
	p("MOVD m+16(FP), R2")
	p("MOVD v+24(FP), R3")
	p("MOVD n+32(FP), R4")
	p("MOVD c+40(FP), R5")
	for i := 0; i < 8; i++ { // V16 β1, V17 1−β1, V18 β2, V19 1−β2, V20 √(1−β2ᵗ), V21 ε, V22 −step, V23 shrink
		p("VLD1R.P 4(R5), [V%d.S4]", 16+i)
	}
	label("adam_loop")
	p("VLD1.P 16(R1), [V0.S4]")              // g
	p("VLD1 (R2), [V1.S4]")                  // m
	p(neon.FMUL(neon.V1, neon.V1, neon.V16)) // m·β1
	p(neon.FMUL(neon.V2, neon.V17, neon.V0)) // (1−β1)·g
	p(neon.FADD(neon.V1, neon.V1, neon.V2))  // m
	p("VST1.P [V1.S4], 16(R2)")
	p("VLD1 (R3), [V3.S4]")                  // v
	p(neon.FMUL(neon.V3, neon.V3, neon.V18)) // v·β2
	p(neon.FMUL(neon.V4, neon.V19, neon.V0)) // (1−β2)·g
	p(neon.FMUL(neon.V4, neon.V4, neon.V0))  // ·g
	p(neon.FADD(neon.V3, neon.V3, neon.V4))  // v
	p("VST1.P [V3.S4], 16(R3)")
	p(neon.FSQRT(neon.V5, neon.V3))          // √v
	p(neon.FDIV(neon.V5, neon.V5, neon.V20)) // /√(1−β2ᵗ)
	p(neon.FADD(neon.V5, neon.V5, neon.V21)) // +ε
	p(neon.FDIV(neon.V6, neon.V1, neon.V5))  // m/denominator
	p(neon.FMUL(neon.V6, neon.V6, neon.V22)) // ·(−step size)
	p("VLD1 (R0), [V7.S4]")
	p(neon.FMUL(neon.V7, neon.V7, neon.V23)) // w·shrink
	p(neon.FADD(neon.V7, neon.V7, neon.V6))
	p("VST1.P [V7.S4], 16(R0)")
	p("SUBS $4, R4, R4")
	p("BNE adam_loop")
	p("RET")
}

// sgd writes sgdVec: sgdScalar's arithmetic, four lanes a step; c.mode's bits say which terms
// run: 1 weight decay, 2 momentum (buf), 4 first step (buf = g), 8 Nesterov.
func sgd() {
	text("sgdVec", "(w, grad, buf *float32, n int, c *sgdConsts)", 40)
	p("MOVD w+0(FP), R0")
	p("MOVD grad+8(FP), R1")
	p("MOVD buf+16(FP), R2")
	p("MOVD n+24(FP), R3")
	p("MOVD c+32(FP), R4")
	for i := 0; i < 4; i++ { // V16 lr, V17 weight decay, V18 momentum, V19 1 − dampening
		p("VLD1R.P 4(R4), [V%d.S4]", 16+i)
	}
	p("MOVWU (R4), R6") // mode
	label("sgd_loop")
	p("VLD1.P 16(R1), [V0.S4]") // g
	p("VLD1 (R0), [V1.S4]")     // w
	p("TBZ $0, R6, sgd_nodecay")
	p(neon.FMUL(neon.V2, neon.V17, neon.V1)) // wd·w
	p(neon.FADD(neon.V0, neon.V0, neon.V2))  // g += wd·w
	label("sgd_nodecay")
	p("TBZ $1, R6, sgd_step")
	p("TBZ $2, R6, sgd_average")
	p(neon.MOV(neon.V3, neon.V0)) // b = g
	p("B sgd_stored")
	label("sgd_average")
	p("VLD1 (R2), [V3.S4]")
	p(neon.FMUL(neon.V3, neon.V3, neon.V18)) // b·momentum
	p(neon.FMUL(neon.V4, neon.V19, neon.V0)) // (1−dampening)·g
	p(neon.FADD(neon.V3, neon.V3, neon.V4))
	label("sgd_stored")
	p("VST1.P [V3.S4], 16(R2)")
	p("TBZ $3, R6, sgd_plain")
	p(neon.FMUL(neon.V4, neon.V18, neon.V3)) // momentum·b
	p(neon.FADD(neon.V0, neon.V0, neon.V4))  // g += momentum·b
	p("B sgd_step")
	label("sgd_plain")
	p(neon.MOV(neon.V0, neon.V3)) // g = b
	label("sgd_step")
	p(neon.FMUL(neon.V0, neon.V16, neon.V0)) // lr·g
	p(neon.FSUB(neon.V1, neon.V1, neon.V0))  // w −= lr·g
	p("VST1.P [V1.S4], 16(R0)")
	p("SUBS $4, R3, R3")
	p("BNE sgd_loop")
	p("RET")
}

// adadelta writes adadeltaVecDecay and adadeltaVecPlain: adadeltaScalar's arithmetic, four lanes
// a step, operation for operation (each product and sum rounded apart, FSQRT and FDIV correctly
// rounded as sqrt32 and Go's division are); decay adds WeightDecay·w to the gradient first.
func adadelta(name string, decay bool) {
	text(name, "(w, grad, sq, acc *float32, n int, c *adadeltaConsts)", 48)
	p("MOVD w+0(FP), R0")
	p("MOVD grad+8(FP), R1")
	p("MOVD sq+16(FP), R2")
	p("MOVD acc+24(FP), R3")
	p("MOVD n+32(FP), R4")
	p("MOVD c+40(FP), R5")
	for i := 0; i < 5; i++ { // V16 LR, V17 Rho, V18 1−Rho, V19 Eps, V20 WeightDecay
		p("VLD1R.P 4(R5), [V%d.S4]", 16+i)
	}
	loop := name + "_loop"
	label(loop)
	p("VLD1.P 16(R1), [V0.S4]") // g
	p("VLD1 (R0), [V1.S4]")     // w
	if decay {
		p(neon.FMUL(neon.V3, neon.V20, neon.V1)) // WeightDecay·w
		p(neon.FADD(neon.V0, neon.V0, neon.V3))  // g += WeightDecay·w
	}
	p("VLD1 (R2), [V2.S4]")                  // sq
	p(neon.FMUL(neon.V2, neon.V2, neon.V17)) // sq·Rho
	p(neon.FMUL(neon.V3, neon.V18, neon.V0)) // (1−Rho)·g
	p(neon.FMUL(neon.V3, neon.V3, neon.V0))  // ·g
	p(neon.FADD(neon.V2, neon.V2, neon.V3))  // sq
	p("VST1.P [V2.S4], 16(R2)")
	p(neon.FADD(neon.V2, neon.V2, neon.V19)) // sq + Eps
	p(neon.FSQRT(neon.V2, neon.V2))          // std
	p("VLD1 (R3), [V4.S4]")                  // acc
	p(neon.FADD(neon.V5, neon.V4, neon.V19)) // acc + Eps
	p(neon.FSQRT(neon.V5, neon.V5))
	p(neon.FDIV(neon.V5, neon.V5, neon.V2))  // /std
	p(neon.FMUL(neon.V5, neon.V5, neon.V0))  // d = ·g
	p(neon.FMUL(neon.V4, neon.V4, neon.V17)) // acc·Rho
	p(neon.FMUL(neon.V6, neon.V18, neon.V5)) // (1−Rho)·d
	p(neon.FMUL(neon.V6, neon.V6, neon.V5))  // ·d
	p(neon.FADD(neon.V4, neon.V4, neon.V6))  // acc
	p("VST1.P [V4.S4], 16(R3)")
	p(neon.FMUL(neon.V5, neon.V16, neon.V5)) // LR·d
	p(neon.FSUB(neon.V1, neon.V1, neon.V5))  // w −= LR·d
	p("VST1.P [V1.S4], 16(R0)")
	p("SUBS $4, R4, R4")
	p("BNE %s", loop)
	p("RET")
}

// binary writes the vector-vector and vector-scalar kernels of one arithmetic op: sixteen lanes
// a round, then four (n a positive multiple of 4).
func binary(name string, op func(d, n, m neon.V) string) {
	text(name+"VVF32", "(d, a, b *float32, n int)", 32)
	p("MOVD d+0(FP), R0")
	p("MOVD a+8(FP), R1")
	p("MOVD b+16(FP), R2")
	p("MOVD n+24(FP), R3")
	p("LSR $4, R3, R4")
	p("CBZ R4, %svv_tail", name)
	label(name + "vv_loop16")
	p("VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]")
	p("VLD1.P 64(R2), [V4.S4, V5.S4, V6.S4, V7.S4]")
	for i := neon.V(0); i < 4; i++ {
		p(op(neon.V16+i, neon.V0+i, neon.V4+i))
	}
	p("VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R0)")
	p("SUBS $1, R4, R4")
	p("BNE %svv_loop16", name)
	label(name + "vv_tail")
	p("ANDS $15, R3, R3")
	p("BEQ %svv_done", name)
	label(name + "vv_loop4")
	p("VLD1.P 16(R1), [V0.S4]")
	p("VLD1.P 16(R2), [V4.S4]")
	p(op(neon.V16, neon.V0, neon.V4))
	p("VST1.P [V16.S4], 16(R0)")
	p("SUBS $4, R3, R3")
	p("BNE %svv_loop4", name)
	label(name + "vv_done")
	p("RET")

	text(name+"VSF32", "(d, a *float32, s float32, n int)", 32)
	p("MOVD d+0(FP), R0")
	p("MOVD a+8(FP), R1")
	p("FMOVS s+16(FP), F31")
	p("VDUP V31.S[0], V31.S4")
	p("MOVD n+24(FP), R3")
	p("LSR $4, R3, R4")
	p("CBZ R4, %svs_tail", name)
	label(name + "vs_loop16")
	p("VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]")
	for i := neon.V(0); i < 4; i++ {
		p(op(neon.V16+i, neon.V0+i, neon.V31))
	}
	p("VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R0)")
	p("SUBS $1, R4, R4")
	p("BNE %svs_loop16", name)
	label(name + "vs_tail")
	p("ANDS $15, R3, R3")
	p("BEQ %svs_done", name)
	label(name + "vs_loop4")
	p("VLD1.P 16(R1), [V0.S4]")
	p(op(neon.V16, neon.V0, neon.V31))
	p("VST1.P [V16.S4], 16(R0)")
	p("SUBS $4, R3, R3")
	p("BNE %svs_loop4", name)
	label(name + "vs_done")
	p("RET")
}

// relu writes reluBitsF32 and reluGradBitsF32, relu_amd64.s's kernels on the bits, 32 lanes a
// round (n a positive multiple of 32): d = x &^ (x >> 31) with the arithmetic shift, and
// dx = gy &^ ((y − 1) >> 31), y's bits less one negative exactly where y is +0.
func relu() {
	text("reluBitsF32", "(d, x *float32, n int)", 24)
	p("MOVD d+0(FP), R0")
	p("MOVD x+8(FP), R1")
	p("MOVD n+16(FP), R3")
	label("relu_loop")
	p("VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]")
	p("VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]")
	for i := neon.V(0); i < 8; i++ {
		p(neon.SSHR(neon.V16+i, neon.V0+i, 31))
	}
	for i := neon.V(0); i < 8; i++ {
		p(neon.BIC(neon.V0+i, neon.V0+i, neon.V16+i))
	}
	p("VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)")
	p("VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R0)")
	p("SUBS $32, R3, R3")
	p("BNE relu_loop")
	p("RET")

	text("reluGradBitsF32", "(dx, gy, y *float32, n int)", 32)
	p("MOVD dx+0(FP), R0")
	p("MOVD gy+8(FP), R1")
	p("MOVD y+16(FP), R2")
	p("MOVD n+24(FP), R3")
	bcast(neon.V31, 1)
	label("relugrad_loop")
	p("VLD1.P 64(R2), [V16.S4, V17.S4, V18.S4, V19.S4]")
	p("VLD1.P 64(R2), [V20.S4, V21.S4, V22.S4, V23.S4]")
	for i := neon.V(0); i < 8; i++ {
		p(neon.SUB(neon.V16+i, neon.V16+i, neon.V31)) // y − 1
	}
	for i := neon.V(0); i < 8; i++ {
		p(neon.SSHR(neon.V16+i, neon.V16+i, 31))
	}
	p("VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]")
	p("VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]")
	for i := neon.V(0); i < 8; i++ {
		p(neon.BIC(neon.V0+i, neon.V0+i, neon.V16+i))
	}
	p("VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)")
	p("VST1.P [V4.S4, V5.S4, V6.S4, V7.S4], 64(R0)")
	p("SUBS $32, R3, R3")
	p("BNE relugrad_loop")
	p("RET")
}

// sum writes sumF32NEON: sumF32AVX's sum, sixteen values a round in float64. AVX2's four
// accumulators of four lanes are eight of two here (V16+2a+h is accumulator a's half h), added
// up in AVX2's order, so both give the same bits.
func sum() {
	text("sumF32NEON", "(x *float32, n int) float64", 24)
	p("MOVD x+0(FP), R0")
	p("MOVD n+8(FP), R1")
	for v := neon.V16; v < neon.V24; v++ {
		p(neon.MOVI0(v))
	}
	label("sum_loop")
	p("VLD1.P 64(R0), [V0.S4, V1.S4, V2.S4, V3.S4]")
	for a := neon.V(0); a < 4; a++ {
		p(neon.FCVTL(neon.V4+2*a, neon.V0+a))
		p(neon.FCVTL2(neon.V5+2*a, neon.V0+a))
	}
	for a := neon.V(0); a < 4; a++ {
		p(neon.FADD2D(neon.V16+2*a, neon.V16+2*a, neon.V4+2*a))
		p(neon.FADD2D(neon.V17+2*a, neon.V17+2*a, neon.V5+2*a))
	}
	p("SUBS $16, R1, R1")
	p("BNE sum_loop")
	for h := neon.V(0); h < 2; h++ { // (acc0 + acc1) + (acc2 + acc3), each half
		p(neon.FADD2D(neon.V16+h, neon.V16+h, neon.V18+h))
		p(neon.FADD2D(neon.V20+h, neon.V20+h, neon.V22+h))
		p(neon.FADD2D(neon.V16+h, neon.V16+h, neon.V20+h))
	}
	p(neon.FADD2D(neon.V16, neon.V16, neon.V17)) // low half + high half
	p(neon.FADDP2D(neon.V0, neon.V16))
	p("FMOVD F0, ret+16(FP)")
	p("RET")
}

// The exp of the softmax rows and of GELU: Cephes' range reduction and degree-5 polynomial, as
// exp_amd64.s and gelu_amd64.s compute it. Registers: V8 the exponent bias 127 (int32), V9 1.0,
// V10/V11 ln2 split in two, V12 0.5, V13 log2(e), V14 the lower clamp, V15 the upper one (GELU),
// V16–V21 the polynomial p0..p5.
func expConsts(upper bool) {
	bcast(neon.V8, 127)
	bcast(neon.V9, 0x3f800000)
	bcast(neon.V10, 0xb95e8083)
	bcast(neon.V11, 0x3f318000)
	bcast(neon.V12, 0x3f000000)
	bcast(neon.V13, 0x3fb8aa3b)
	bcast(neon.V14, 0xc2aeac50)
	if upper {
		bcast(neon.V15, 0x42b00000)
	}
	for i, c := range []uint32{0x39506967, 0x3ab743ce, 0x3c088908, 0x3d2aa9c1, 0x3e2aaaaa, 0x3f000000} {
		bcast(neon.V16+neon.V(i), c)
	}
}

// exp sets V3 = e^V0 (V0 clobbered; V1, V2, V4, V5 scratch), clamping V0 below (and above when
// upper) first.
func exp(upper bool) {
	p(neon.FMAX(neon.V0, neon.V0, neon.V14))
	if upper {
		p(neon.FMIN(neon.V0, neon.V0, neon.V15))
	}
	p(neon.MOV(neon.V1, neon.V12))
	p(neon.FMLA(neon.V1, neon.V0, neon.V13)) // fx = x·log2e + 0.5
	p(neon.FRINTM(neon.V1, neon.V1))         // floor
	p(neon.FMLS(neon.V0, neon.V1, neon.V11)) // x −= fx·c1
	p(neon.FMLS(neon.V0, neon.V1, neon.V10)) // x −= fx·c2
	p(neon.FMUL(neon.V2, neon.V0, neon.V0))  // z = x²
	// y = ((((p0·x + p1)·x + p2)·x + p3)·x + p4)·x + p5, alternating V3 and V4.
	y := neon.V16
	for i := 1; i <= 5; i++ {
		t := neon.V3 + neon.V(1-i%2)
		p(neon.MOV(t, neon.V16+neon.V(i)))
		p(neon.FMLA(t, y, neon.V0))
		y = t
	}
	p(neon.MOV(neon.V4, neon.V0))
	p(neon.FMLA(neon.V4, neon.V3, neon.V2)) // y·z + x
	p(neon.FADD(neon.V3, neon.V4, neon.V9)) // + 1
	p(neon.FCVTZS(neon.V5, neon.V1))        // n = int(fx)
	p(neon.ADD(neon.V5, neon.V5, neon.V8))
	p(neon.SHL(neon.V5, neon.V5, 23)) // 2ⁿ as float bits
	p(neon.FMUL(neon.V3, neon.V3, neon.V5))
}

// expShiftSum writes expShiftSumNEON: dst[i] = e^(src[i] − shift) for i < n (n a positive
// multiple of 8) and the float32 sum of the results, in AVX2's lanes: V24 holds lanes 0–3 of
// each eight, V25 lanes 4–7.
func expShiftSum() {
	text("expShiftSumNEON", "(dst, src *float32, n int, shift float32) float32", 36)
	p("MOVD dst+0(FP), R0")
	p("MOVD src+8(FP), R1")
	p("MOVD n+16(FP), R2")
	p("FMOVS shift+24(FP), F26")
	p("VDUP V26.S[0], V26.S4")
	expConsts(false)
	p(neon.MOVI0(neon.V24))
	p(neon.MOVI0(neon.V25))
	label("exp_loop")
	for h := neon.V(0); h < 2; h++ {
		p("VLD1.P 16(R1), [V0.S4]")
		p(neon.FSUB(neon.V0, neon.V0, neon.V26))
		exp(false)
		p("VST1.P [V3.S4], 16(R0)")
		p(neon.FADD(neon.V24+h, neon.V24+h, neon.V3))
	}
	p("SUBS $8, R2, R2")
	p("BNE exp_loop")
	p(neon.FADD(neon.V24, neon.V24, neon.V25))  // low half + high half
	p(neon.FADDP(neon.V24, neon.V24, neon.V24)) // {l0+l1, l2+l3, …}
	p(neon.FADDPS(neon.V0, neon.V24))           // (l0+l1) + (l2+l3)
	p("FMOVS F0, ret+32(FP)")
	p("RET")
}

// maxF32 writes maxF32NEON: the largest of n values (n a positive multiple of 8). A NaN makes
// the result NaN (FMAX), where the scalar loop drops NaNs after the first element; softmax of
// such a row is NaN either way.
func maxF32() {
	text("maxF32NEON", "(src *float32, n int) float32", 20)
	p("MOVD src+0(FP), R0")
	p("MOVD n+8(FP), R1")
	p("VLD1.P 32(R0), [V0.S4, V1.S4]")
	p("SUBS $8, R1, R1")
	p("BEQ max_reduce")
	label("max_loop")
	p("VLD1.P 32(R0), [V2.S4, V3.S4]")
	p(neon.FMAX(neon.V0, neon.V0, neon.V2))
	p(neon.FMAX(neon.V1, neon.V1, neon.V3))
	p("SUBS $8, R1, R1")
	p("BNE max_loop")
	label("max_reduce")
	p(neon.FMAX(neon.V0, neon.V0, neon.V1))
	p(neon.FMAXV(neon.V0, neon.V0))
	p("FMOVS F0, ret+16(FP)")
	p("RET")
}

// GELU's constants beyond the exp's: for the tanh form V22 κ = 0.044715, V23 −2·√(2/π), V24 3κ,
// V25 2·√(2/π); for the exact form V22 1/√(2π), V26 p/√2 of Abramowitz–Stegun 7.1.26
// (p = 0.3275911), V27–V31 its a5..a1.
func geluConsts(tanh bool) {
	expConsts(true)
	if tanh {
		bcast(neon.V22, 0x3d372713)
		bcast(neon.V23, 0xbfcc422a)
		bcast(neon.V24, 0x3e095d4f)
		bcast(neon.V25, 0x3fcc422a)
		return
	}
	bcast(neon.V22, 0x3ecc422a)
	bcast(neon.V26, 0x3e6d3388)
	for i, c := range []uint32{0x3f87dc22, 0xbfba00e3, 0x3fb5f0e3, 0xbe91a98e, 0x3e827906} {
		bcast(neon.V27+neon.V(i), c)
	}
}

// tanhArg sets V0 = −2·√(2/π)·(x + κx³) from V6 = x, V7 = x².
func tanhArg() {
	p(neon.MOV(neon.V0, neon.V9))
	p(neon.FMLA(neon.V0, neon.V7, neon.V22)) // 1 + κx²
	p(neon.FMUL(neon.V0, neon.V0, neon.V6))
	p(neon.FMUL(neon.V0, neon.V0, neon.V23))
}

// erfCDF sets V3 = Φ(x) and V7 = e^(−x²/2) from V6 = x, V7 = x² (Abramowitz–Stegun 7.1.26 for
// erf(|x|/√2), reflected for negative x).
func erfCDF() {
	p(neon.FMUL(neon.V0, neon.V7, neon.V12))
	p(neon.MOVI0(neon.V1))
	p(neon.FSUB(neon.V0, neon.V1, neon.V0)) // −x²/2
	exp(true)
	p(neon.MOV(neon.V7, neon.V3))
	p(neon.FABS(neon.V1, neon.V6))
	p(neon.MOV(neon.V4, neon.V9))
	p(neon.FMLA(neon.V4, neon.V1, neon.V26)) // 1 + p|x|/√2
	p(neon.FDIV(neon.V4, neon.V9, neon.V4))  // t
	// ((((a5·t + a4)·t + a3)·t + a2)·t + a1), alternating V2 and V5.
	y := neon.V27
	for i := 1; i <= 4; i++ {
		t := neon.V2
		if i%2 == 0 {
			t = neon.V5
		}
		p(neon.MOV(t, neon.V27+neon.V(i)))
		p(neon.FMLA(t, y, neon.V4))
		y = t
	}
	p(neon.FMUL(neon.V5, neon.V5, neon.V4))
	p(neon.FMUL(neon.V5, neon.V5, neon.V7))
	p(neon.FMUL(neon.V5, neon.V5, neon.V12)) // q = Φ(−|x|)
	p(neon.FSUB(neon.V1, neon.V9, neon.V5))  // 1 − q
	p(neon.MOVI0(neon.V2))
	p(neon.FCMGE(neon.V3, neon.V6, neon.V2)) // x ≥ 0
	p(neon.BSL(neon.V3, neon.V1, neon.V5))
}

// gelu writes the four GELU kernels, four lanes a step (n a positive multiple of 4).
func gelu() {
	text("geluTanhNEON", "(dst, x *float32, n int)", 24)
	fmt.Fprintf(&out, "// dst = x·σ(2u), u = √(2/π)(x + κx³): PyTorch's gelu(approximate='tanh'), 0.5x(1 + tanh u).\n")
	p("MOVD dst+0(FP), R0")
	p("MOVD x+8(FP), R1")
	p("MOVD n+16(FP), R2")
	geluConsts(true)
	label("gt_loop")
	p("VLD1.P 16(R1), [V6.S4]")
	p(neon.FMUL(neon.V7, neon.V6, neon.V6))
	tanhArg()
	exp(true)
	p(neon.FADD(neon.V3, neon.V3, neon.V9))
	p(neon.FDIV(neon.V3, neon.V6, neon.V3))
	p("VST1.P [V3.S4], 16(R0)")
	p("SUBS $4, R2, R2")
	p("BNE gt_loop")
	p("RET")

	text("geluTanhGradNEON", "(dx, gy, x *float32, n int)", 32)
	fmt.Fprintf(&out, "// dx = gy·(s + 2·√(2/π)·x·s(1−s)(1 + 3κx²)), s = σ(2u).\n")
	p("MOVD dx+0(FP), R0")
	p("MOVD gy+8(FP), R3")
	p("MOVD x+16(FP), R1")
	p("MOVD n+24(FP), R2")
	geluConsts(true)
	label("gtg_loop")
	p("VLD1.P 16(R1), [V6.S4]")
	p(neon.FMUL(neon.V7, neon.V6, neon.V6))
	tanhArg()
	exp(true)
	p(neon.FADD(neon.V3, neon.V3, neon.V9))
	p(neon.FDIV(neon.V0, neon.V9, neon.V3)) // s
	p(neon.FSUB(neon.V1, neon.V9, neon.V0))
	p(neon.FMUL(neon.V1, neon.V1, neon.V0))
	p(neon.FMUL(neon.V1, neon.V1, neon.V6))
	p(neon.MOV(neon.V2, neon.V9))
	p(neon.FMLA(neon.V2, neon.V7, neon.V24)) // 1 + 3κx²
	p(neon.FMUL(neon.V1, neon.V1, neon.V2))
	p(neon.FMUL(neon.V1, neon.V1, neon.V25))
	p(neon.FADD(neon.V1, neon.V1, neon.V0))
	p("VLD1.P 16(R3), [V2.S4]")
	p(neon.FMUL(neon.V1, neon.V1, neon.V2))
	p("VST1.P [V1.S4], 16(R0)")
	p("SUBS $4, R2, R2")
	p("BNE gtg_loop")
	p("RET")

	text("geluErfNEON", "(dst, x *float32, n int)", 24)
	fmt.Fprintf(&out, "// dst = x·Φ(x), Φ the standard normal CDF: PyTorch's exact gelu.\n")
	p("MOVD dst+0(FP), R0")
	p("MOVD x+8(FP), R1")
	p("MOVD n+16(FP), R2")
	geluConsts(false)
	label("ge_loop")
	p("VLD1.P 16(R1), [V6.S4]")
	p(neon.FMUL(neon.V7, neon.V6, neon.V6))
	erfCDF()
	p(neon.FMUL(neon.V3, neon.V3, neon.V6))
	p("VST1.P [V3.S4], 16(R0)")
	p("SUBS $4, R2, R2")
	p("BNE ge_loop")
	p("RET")

	text("geluErfGradNEON", "(dx, gy, x *float32, n int)", 32)
	fmt.Fprintf(&out, "// dx = gy·(Φ(x) + x·φ(x)).\n")
	p("MOVD dx+0(FP), R0")
	p("MOVD gy+8(FP), R3")
	p("MOVD x+16(FP), R1")
	p("MOVD n+24(FP), R2")
	geluConsts(false)
	label("geg_loop")
	p("VLD1.P 16(R1), [V6.S4]")
	p(neon.FMUL(neon.V7, neon.V6, neon.V6))
	erfCDF()
	p(neon.FMUL(neon.V7, neon.V7, neon.V22)) // φ(x)
	p(neon.FMLA(neon.V3, neon.V6, neon.V7))
	p("VLD1.P 16(R3), [V2.S4]")
	p(neon.FMUL(neon.V3, neon.V3, neon.V2))
	p("VST1.P [V3.S4], 16(R0)")
	p("SUBS $4, R2, R2")
	p("BNE geg_loop")
	p("RET")
}

// bf16 writes f32ToBF16NEON: dst[i] = half.F32ToBF16(src[i]) for i < n (n a positive multiple of
// 8): round to nearest even on the bits, (b + 0x7fff + (b>>16)&1) >> 16, and a NaN kept quiet as
// (b>>16) | 0x40.
func bf16() {
	text("f32ToBF16NEON", "(dst *uint16, src *float32, n int)", 24)
	p("MOVD dst+0(FP), R0")
	p("MOVD src+8(FP), R1")
	p("MOVD n+16(FP), R2")
	bcast(neon.V20, 1)
	bcast(neon.V21, 0x7fff)
	bcast(neon.V22, 0x7f800000)
	bcast(neon.V23, 0x40)
	bcast(neon.V24, 0x7fffffff)
	label("bf16_loop")
	p("VLD1.P 32(R1), [V0.S4, V1.S4]")
	for h := neon.V(0); h < 2; h++ {
		b := neon.V0 + h
		p(neon.USHR(neon.V2, b, 16))             // b >> 16
		p(neon.AND(neon.V3, neon.V2, neon.V20))  // (b >> 16) & 1
		p(neon.ADD(neon.V4, b, neon.V21))        // b + 0x7fff
		p(neon.ADD(neon.V4, neon.V4, neon.V3))   //
		p(neon.USHR(neon.V4, neon.V4, 16))       // rounded
		p(neon.AND(neon.V5, b, neon.V24))        // |b|
		p(neon.CMHI(neon.V5, neon.V5, neon.V22)) // |b| > +Inf: NaN
		p(neon.ORR(neon.V6, neon.V2, neon.V23))  // quiet NaN
		p(neon.BSL(neon.V5, neon.V6, neon.V4))   //
		if h == 0 {
			p(neon.XTN(neon.V7, neon.V5))
		} else {
			p(neon.XTN2(neon.V7, neon.V5))
		}
	}
	p("VST1.P [V7.H8], 16(R0)")
	p("SUBS $8, R2, R2")
	p("BNE bf16_loop")
	p("RET")
}

func main() {
	out.WriteString("// Code generated by gen_neon.go; DO NOT EDIT.\n\n//go:build arm64 && !purego\n\n#include \"textflag.h\"\n")
	adam()
	sgd()
	adadelta("adadeltaVecDecay", true)
	adadelta("adadeltaVecPlain", false)
	binary("add", neon.FADD)
	binary("sub", neon.FSUB)
	binary("mul", neon.FMUL)
	binary("div", neon.FDIV)
	relu()
	sum()
	expShiftSum()
	maxF32()
	gelu()
	bf16()
	layerNormKernels()
	streamKernels()
	if err := os.WriteFile("kernels_arm64.s", out.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
