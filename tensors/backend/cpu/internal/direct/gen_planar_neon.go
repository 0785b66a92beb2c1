//go:build ignore

package main

import (
	"fmt"

	"github.com/goaccel/goaccel/internal/neon"
)

// The planar kernels' NEON forms, as gen_planar.go's: 3×3 convolutions in NCHW, four
// consecutive positions of an output row to a vector. A row's last rowLen mod 4 positions are
// loaded and stored lane by lane into zeroed vectors (amd64's masked vectors): nothing past the
// row's end is read or written.

// maxPlanarFilters is how many filters one forward kernel computes: 16 accumulators, the nine
// taps' vectors and four of filter values take 29 registers.
const maxPlanarFilters = 16

// planarTap writes tap k's input vector of the position at R13 (the channel's input) into
// V(16+k); lanes < 4 loads only that many lanes into a zeroed vector. R19–R21 hold the three
// rows' pointers.
func planarTap(k, lanes int) {
	dy, dx := k/3, k%3
	base := []string{"R19", "R20", "R21"}[dy]
	v := 16 + k
	p("ADD $%d, %s, R22", 4*dx, base)
	if lanes == 4 {
		p("VLD1 (R22), [V%d.S4]", v)
		return
	}
	p("VEOR V%d.B16, V%d.B16, V%d.B16", v, v, v)
	for j := 0; j < lanes; j++ {
		p("VLD1.P 4(R22), V%d.S[%d]", v, j)
	}
}

// planarForwardVector writes one vector of positions (lanes of them) of planarForward<nf>.
func planarForwardVector(name string, nf, lanes int) {
	tag := fmt.Sprintf("%s_chan%d", name, lanes)
	p("MOVD R5, R22")
	for f := 0; f < nf; f++ {
		p("VLD1R.P 4(R22), [V%d.S4]", f)
	}
	p("ADD R11, R0, R13")
	p("MOVD R4, R14")
	p("MOVD channels+24(FP), R15")
	label(tag)
	p("MOVD R13, R19")
	p("ADD R1, R19, R20")
	p("ADD R1, R20, R21")
	for k := 0; k < 9; k++ {
		planarTap(k, lanes)
	}
	nw := (nf + 3) / 4
	for k := 0; k < 9; k++ {
		regs := ""
		for i := 0; i < nw; i++ {
			if i > 0 {
				regs += ", "
			}
			regs += fmt.Sprintf("V%d.S4", 25+i)
		}
		p("VLD1 (R14), [%s]", regs)
		p("ADD $64, R14, R14")
		for f := 0; f < nf; f++ {
			p("%s", neon.FMLAElem(neon.V(f), neon.V(16+k), neon.V(25+f/4), f%4))
		}
	}
	p("ADD R2, R13, R13")
	p("SUBS $1, R15, R15")
	p("BNE %s", tag)
	p("ADD R11, R6, R22")
	for f := 0; f < nf; f++ {
		if lanes == 4 {
			p("VST1 [V%d.S4], (R22)", f)
		} else {
			p("MOVD R22, R23")
			for j := 0; j < lanes; j++ {
				p("VST1.P V%d.S[%d], 4(R23)", f, j)
			}
		}
		if f < nf-1 {
			p("ADD R7, R22, R22")
		}
	}
}

// planarForward writes planarForward<nf>: for each position of rows rows of rowLen,
// y[f] = bias[f] + Σ_c Σ_k w[c][k][f] · x_c[position + tap k], accumulated as on amd64 (bias,
// then channel by channel, tap by tap, fused). w is the plan's panel, [channels][9][16] floats;
// x's channels are xPlane bytes apart, y's filters yPlane.
func planarForward(nf int) {
	name := fmt.Sprintf("planarForward%d", nf)
	text(name, "(x unsafe.Pointer, xRow, xPlane, channels int, w, bias, y *float32, yPlane, rows, rowLen int)", 80)
	p("MOVD x+0(FP), R0")
	p("MOVD xRow+8(FP), R1")
	p("MOVD xPlane+16(FP), R2")
	p("MOVD w+32(FP), R4")
	p("MOVD bias+40(FP), R5")
	p("MOVD y+48(FP), R6")
	p("MOVD yPlane+56(FP), R7")
	p("MOVD rows+64(FP), R9")
	p("MOVD rowLen+72(FP), R10")
	label(name + "_row")
	p("MOVD $0, R11") // the byte offset of the vector in the row
	p("MOVD R10, R12")
	p("CMP $4, R12")
	p("BLT %s_tail", name)
	label(name + "_loop")
	planarForwardVector(name, nf, 4)
	p("ADD $16, R11, R11")
	p("SUB $4, R12, R12")
	p("CMP $4, R12")
	p("BGE %s_loop", name)
	label(name + "_tail")
	p("CBZ R12, %s_next", name)
	p("CMP $2, R12")
	p("BLT %s_tail1", name)
	p("BEQ %s_tail2", name)
	for lanes := 3; lanes >= 1; lanes-- {
		if lanes < 3 {
			label(fmt.Sprintf("%s_tail%d", name, lanes))
		}
		planarForwardVector(name, nf, lanes)
		if lanes > 1 {
			p("B %s_next", name)
		}
	}
	label(name + "_next")
	p("ADD R1, R0, R0")
	p("ADD R10<<2, R6, R6")
	p("SUBS $1, R9, R9")
	p("BNE %s_row", name)
	p("RET")
}

// planarGradRow writes planarGradRowNEON: for one filter and one row of taps (dy fixed by the
// caller's x), sums[dx] = Σ_position gy[position] · x[position + dx] over rows rows of rowLen
// positions, summed as amd64's planarWeightGrad sums: sixteen lanes, a row's position i in lane
// i mod 16 (accumulator V(4dx + lane/4)), then the lanes added in its fixed order.
func planarGradRow() {
	name := "planarGradRowNEON"
	text(name, "(x unsafe.Pointer, xRow int, gy unsafe.Pointer, rows, rowLen int, sums *float32)", 48)
	p("MOVD x+0(FP), R0")
	p("MOVD xRow+8(FP), R1")
	p("MOVD gy+16(FP), R2")
	p("MOVD rows+24(FP), R3")
	p("MOVD rowLen+32(FP), R4")
	for a := 0; a < 12; a++ {
		p("VEOR V%d.B16, V%d.B16, V%d.B16", a, a, a)
	}
	// group q of a vector: G's lanes 4q.. in V(16+q), tap dx's in V(20+dx).
	group := func(q, lanes int) {
		g := neon.V(16 + q)
		p("ADD R11<<2, R2, R22")
		p("ADD $%d, R22, R22", 16*q)
		if lanes == 4 {
			p("VLD1 (R22), [V%d.S4]", g)
		} else {
			p("VEOR V%d.B16, V%d.B16, V%d.B16", g, g, g)
			for j := 0; j < lanes; j++ {
				p("VLD1.P 4(R22), V%d.S[%d]", g, j)
			}
		}
		for dx := 0; dx < 3; dx++ {
			xv := neon.V(20 + dx)
			p("ADD R11<<2, R0, R22")
			p("ADD $%d, R22, R22", 16*q+4*dx)
			if lanes == 4 {
				p("VLD1 (R22), [V%d.S4]", xv)
			} else {
				p("VEOR V%d.B16, V%d.B16, V%d.B16", xv, xv, xv)
				for j := 0; j < lanes; j++ {
					p("VLD1.P 4(R22), V%d.S[%d]", xv, j)
				}
			}
			p("%s", neon.FMLA(neon.V(4*dx+q), xv, g))
		}
	}
	p("CBZ R3, %s_sum", name)
	label(name + "_row")
	p("MOVD $0, R11") // the position in the row
	p("SUB $16, R4, R12")
	p("TBNZ $63, R12, %s_tail", name)
	label(name + "_loop")
	for q := 0; q < 4; q++ {
		group(q, 4)
	}
	p("ADD $16, R11, R11")
	p("SUB $16, R12, R12")
	p("TBZ $63, R12, %s_loop", name)
	label(name + "_tail")
	// R12 + 16 positions are left: groups of four, then the last one's lanes.
	p("ADD $16, R12, R12")
	for q := 0; q < 4; q++ {
		p("CBZ R12, %s_next", name)
		p("CMP $4, R12")
		p("BLT %s_part%d", name, q)
		group(q, 4)
		p("SUB $4, R12, R12")
		p("B %s_group%d", name, q+1)
		label(fmt.Sprintf("%s_part%d", name, q))
		p("CMP $2, R12")
		p("BLT %s_part%d_1", name, q)
		p("BEQ %s_part%d_2", name, q)
		for lanes := 3; lanes >= 1; lanes-- {
			if lanes < 3 {
				label(fmt.Sprintf("%s_part%d_%d", name, q, lanes))
			}
			group(q, lanes)
			p("B %s_next", name)
		}
		label(fmt.Sprintf("%s_group%d", name, q+1))
	}
	label(name + "_next")
	p("ADD R1, R0, R0")
	p("ADD R4<<2, R2, R2")
	p("SUBS $1, R3, R3")
	p("BNE %s_row", name)
	label(name + "_sum")
	// Lanes a0..a15 of tap dx in V(4dx)..V(4dx+3): b = (a0..3 + a8..11) + (a4..7 + a12..15)
	// lane by lane, then (b0 + b2) + (b1 + b3), as amd64's halving reduction.
	p("MOVD sums+40(FP), R0")
	for dx := 0; dx < 3; dx++ {
		a := neon.V(4 * dx)
		p("%s", neon.FADD(neon.V24, a, a+2))
		p("%s", neon.FADD(neon.V25, a+1, a+3))
		p("%s", neon.FADD(neon.V24, neon.V24, neon.V25))
		p("VEXT $8, V24.B16, V24.B16, V25.B16")
		p("%s", neon.FADD(neon.V24, neon.V24, neon.V25))
		p("%s", neon.FADDPS(neon.V24, neon.V24))
		p("FMOVS F24, %d(R0)", 4*dx)
	}
	p("RET")
}

func planarKernels() {
	for n := 1; n <= maxPlanarFilters; n++ {
		planarForward(n)
	}
	planarGradRow()
}
