//go:build ignore

package main

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/neon"
)

// The LayerNorm row kernels of layernorm_amd64.s in NEON: float64 arithmetic on two lanes, in
// amd64's operations (a fused multiply-add where it has one) and with its lanes: a row sum keeps
// amd64's eight or sixteen float64 lanes in four or eight registers and adds them in its order,
// so every kernel gives amd64's bits. V28 holds the row's mean, V29 its reciprocal standard
// deviation; n is a positive multiple of 16.

// bcastD sets both float64 lanes of v to the argument arg.
func bcastD(v neon.V, arg string) {
	p("MOVD %s, R9", arg)
	p("VDUP R9, V%d.D2", v)
}

// widen loads four float32 values at reg (advancing it by 16 bytes when post) as float64 into
// lo (the first two) and lo+1.
func widen(reg string, lo neon.V, post bool) {
	if post {
		p("VLD1.P 16(%s), [V27.S4]", reg)
	} else {
		p("VLD1 (%s), [V27.S4]", reg)
	}
	p("%s", neon.FCVTL(lo, neon.V27))
	p("%s", neon.FCVTL2(lo+1, neon.V27))
}

// narrow rounds the float64 pairs lo and lo+1 to four float32 values in d.
func narrow(d, lo neon.V) {
	p("%s", neon.FCVTN(d, lo))
	p("%s", neon.FCVTN2(d, lo+1))
}

// hsum4 adds amd64's eight lanes held in a..a+3 (lanes 2j, 2j+1 in a+j) into lane 0 of a, as
// its HSUM: (a+0 + a+2) + (a+1 + a+3), then the two lanes.
func hsum4(a neon.V) {
	p("%s", neon.FADD2D(a, a, a+2))
	p("%s", neon.FADD2D(a+1, a+1, a+3))
	p("%s", neon.FADD2D(a, a, a+1))
	p("%s", neon.FADDP2D(a, a))
}

// xhat sets lo, lo+1 to (x − mu)·rs of the four values at R1 (advancing it).
func xhat(lo neon.V) {
	widen("R1", lo, true)
	for h := neon.V(0); h < 2; h++ {
		p("%s", neon.FSUB2D(lo+h, lo+h, neon.V28))
		p("%s", neon.FMUL2D(lo+h, lo+h, neon.V29))
	}
}

// lnDev: Σ (x[i] − mu)², sixteen values a step in amd64's two accumulators of eight lanes
// (V16–V19 and V20–V23).
func lnDev() {
	text("lnDevF32Vec", "(x *float32, n int, mu float64) float64", 32)
	p("MOVD x+0(FP), R1")
	p("MOVD n+8(FP), R2")
	bcastD(neon.V28, "mu+16(FP)")
	for a := 16; a < 24; a++ {
		p("VEOR V%d.B16, V%d.B16, V%d.B16", a, a, a)
	}
	label("lndev_loop")
	for q := neon.V(0); q < 4; q++ {
		widen("R1", 4+2*q, true)
	}
	for j := neon.V(0); j < 8; j++ {
		p("%s", neon.FSUB2D(4+j, 4+j, neon.V28))
		p("%s", neon.FMLA2D(16+j, 4+j, 4+j))
	}
	p("SUBS $16, R2, R2")
	p("BNE lndev_loop")
	for j := neon.V(0); j < 4; j++ {
		p("%s", neon.FADD2D(16+j, 16+j, 20+j))
	}
	hsum4(neon.V16)
	p("FMOVD F16, ret+24(FP)")
	p("RET")
}

// lnApply: y[i] = float32((x[i]−mu)·rs), times w[i] unless w is nil, plus b[i] unless b is nil.
func lnApply() {
	text("lnApplyF32Vec", "(y, x, w, b *float32, n int, mu, rs float64)", 56)
	p("MOVD y+0(FP), R0")
	p("MOVD x+8(FP), R1")
	p("MOVD w+16(FP), R3")
	p("MOVD b+24(FP), R4")
	p("MOVD n+32(FP), R2")
	bcastD(neon.V28, "mu+40(FP)")
	bcastD(neon.V29, "rs+48(FP)")
	label("lnapply_loop")
	xhat(neon.V0)
	narrow(neon.V2, neon.V0)
	p("CBZ R3, lnapply_now")
	p("VLD1.P 16(R3), [V3.S4]")
	p("%s", neon.FMUL(neon.V2, neon.V2, neon.V3))
	label("lnapply_now")
	p("CBZ R4, lnapply_nob")
	p("VLD1.P 16(R4), [V3.S4]")
	p("%s", neon.FADD(neon.V2, neon.V2, neon.V3))
	label("lnapply_nob")
	p("VST1.P [V2.S4], 16(R0)")
	p("SUBS $4, R2, R2")
	p("BNE lnapply_loop")
	p("RET")
}

// lnGradSums: with x̂ = (x−mu)·rs and ĝ = gy·w, returns Σ ĝ (V16–V19) and Σ ĝ·x̂ (V20–V23) in
// amd64's eight lanes, and adds float32(gy·x̂) to dw and gy to db (each unless nil).
func lnGradSums() {
	text("lnGradSumsF32Vec", "(gy, x, w, dw, db *float32, n int, mu, rs float64) (sg, sgx float64)", 80)
	p("MOVD gy+0(FP), R0")
	p("MOVD x+8(FP), R1")
	p("MOVD w+16(FP), R3")
	p("MOVD dw+24(FP), R4")
	p("MOVD db+32(FP), R5")
	p("MOVD n+40(FP), R2")
	bcastD(neon.V28, "mu+48(FP)")
	bcastD(neon.V29, "rs+56(FP)")
	for a := 16; a < 24; a++ {
		p("VEOR V%d.B16, V%d.B16, V%d.B16", a, a, a)
	}
	label("lnsums_loop")
	for q := neon.V(0); q < 2; q++ { // eight values: lanes 4q.. of amd64's vector
		xhat(0) // V0, V1
		p("MOVD R0, R6")
		widen("R0", 2, true) // g: V2, V3
		widen("R3", 4, true) // w: V4, V5
		for h := neon.V(0); h < 2; h++ {
			p("%s", neon.FMUL2D(4+h, 4+h, 2+h)) // ĝ
			p("%s", neon.FADD2D(16+2*q+h, 16+2*q+h, 4+h))
			p("%s", neon.FMLA2D(20+2*q+h, 4+h, h)) // += ĝ·x̂
			p("%s", neon.FMUL2D(6+h, h, 2+h))      // g·x̂
		}
		p("CBZ R4, lnsums_nodw%d", q)
		narrow(neon.V8, neon.V6)
		p("VLD1 (R4), [V9.S4]")
		p("%s", neon.FADD(neon.V8, neon.V8, neon.V9))
		p("VST1.P [V8.S4], 16(R4)")
		label(fmt.Sprintf("lnsums_nodw%d", q))
		p("CBZ R5, lnsums_nodb%d", q)
		p("VLD1 (R6), [V8.S4]")
		p("VLD1 (R5), [V9.S4]")
		p("%s", neon.FADD(neon.V8, neon.V8, neon.V9))
		p("VST1.P [V8.S4], 16(R5)")
		label(fmt.Sprintf("lnsums_nodb%d", q))
	}
	p("SUBS $8, R2, R2")
	p("BNE lnsums_loop")
	hsum4(neon.V16)
	hsum4(neon.V20)
	p("FMOVD F16, sg+64(FP)")
	p("FMOVD F20, sgx+72(FP)")
	p("RET")
}

// lnGradDx: dx[i] = float32(rs·(ĝ − sg − x̂·sgx)), the last two fused as on amd64.
func lnGradDx() {
	text("lnGradDxF32Vec", "(dx, gy, x, w *float32, n int, mu, rs, sg, sgx float64)", 72)
	p("MOVD dx+0(FP), R4")
	p("MOVD gy+8(FP), R0")
	p("MOVD x+16(FP), R1")
	p("MOVD w+24(FP), R3")
	p("MOVD n+32(FP), R2")
	bcastD(neon.V28, "mu+40(FP)")
	bcastD(neon.V29, "rs+48(FP)")
	bcastD(neon.V30, "sg+56(FP)")
	bcastD(neon.V31, "sgx+64(FP)")
	label("lndx_loop")
	xhat(0)              // V0, V1
	widen("R0", 2, true) // g
	widen("R3", 4, true) // w
	for h := neon.V(0); h < 2; h++ {
		p("%s", neon.FMUL2D(4+h, 4+h, 2+h)) // ĝ
		p("%s", neon.FSUB2D(4+h, 4+h, neon.V30))
		p("%s", neon.FMLS2D(4+h, h, neon.V31))
		p("%s", neon.FMUL2D(4+h, 4+h, neon.V29))
	}
	narrow(neon.V8, neon.V4)
	p("VST1.P [V8.S4], 16(R4)")
	p("SUBS $4, R2, R2")
	p("BNE lndx_loop")
	p("RET")
}

func layerNormKernels() {
	lnDev()
	lnApply()
	lnGradSums()
	lnGradDx()
}
