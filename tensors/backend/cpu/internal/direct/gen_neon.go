//go:build ignore

// gen_neon writes kernels_arm64.s, the NEON forms of kernels_amd64.s, and their declarations
// (kernels_arm64_decl.go); gen_planar_neon.go writes the planar kernels'. Run with
// `go generate ./tensors/backend/cpu/internal/direct/`.
//
// Each kernel does the AVX-512 kernel's arithmetic in the same order on four lanes instead of
// sixteen: a fused multiply-add where amd64 has one (VFMADD231PS, here FMLA), each sum and
// difference rounded where amd64 rounds it, so the results are amd64's bit for bit. A NEON
// kernel covers a narrower tile than its AVX-512 twin (32 registers of 4 lanes, not 32 of 16):
// forwardNEON computes up to 6 positions × 16 filters, weightGradNEON 8 taps × 8 filters, the
// Winograd transforms 4 lanes at a time; kernels_arm64.go covers amd64's tiles with them. Go's
// assembler lacks NEON's floating-point instructions; package neon encodes them as WORDs with
// their GNU syntax.
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/goaccel/goaccel/internal/neon"
)

var out, decls bytes.Buffer

func p(format string, args ...any) { fmt.Fprintf(&out, "\t"+format+"\n", args...) }
func label(l string)               { fmt.Fprintf(&out, "%s:\n", l) }

// text starts kernel name's assembly and declares it in kernels_arm64_decl.go.
func text(name, sig string, args int) {
	fmt.Fprintf(&decls, "\n//go:noescape\nfunc %s%s\n", name, sig)
	fmt.Fprintf(&out, "\n// func %s%s\n", name, sig)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, args)
}

// maxForwardRows is the most positions forwardNEON computes: 6 rows of 4 vectors keep 24
// accumulators, the filter row takes 4 registers and the broadcast inputs the other 4.
const maxForwardRows = 6

// forward writes forwardNEON<rows>: C[i][0:16] = bias + Σ_k x[i + tap k] · B[k][0:16] for rows
// consecutive positions, B's rows bStride bytes apart. Accumulator of row i, vector v: V(4i+v).
func forward(rows int) {
	name := fmt.Sprintf("forwardNEON%d", rows)
	text(name, "(kc int, x unsafe.Pointer, offs *int, b unsafe.Pointer, bStride int, bias *float32, c *float32, ldc int)", 64)
	p("MOVD kc+0(FP), R0")
	p("MOVD x+8(FP), R1")
	p("MOVD offs+16(FP), R2")
	p("MOVD b+24(FP), R3")
	p("MOVD bStride+32(FP), R4")
	p("MOVD bias+40(FP), R5")
	p("MOVD c+48(FP), R6")
	p("MOVD ldc+56(FP), R7")
	p("LSL $2, R7, R7")
	p("CBZ R5, %s_zero", name)
	p("VLD1 (R5), [V24.S4, V25.S4, V26.S4, V27.S4]")
	p("B %s_init", name)
	label(name + "_zero")
	for v := 0; v < 4; v++ {
		p("VEOR V%d.B16, V%d.B16, V%d.B16", 24+v, 24+v, 24+v)
	}
	label(name + "_init")
	for i := 0; i < rows; i++ {
		for v := 0; v < 4; v++ {
			p("VMOV V%d.B16, V%d.B16", 24+v, 4*i+v)
		}
	}
	p("CBZ R0, %s_store", name)
	label(name + "_loop")
	p("MOVD.P 8(R2), R8")
	p("ADD R1, R8, R8")
	p("VLD1 (R3), [V24.S4, V25.S4, V26.S4, V27.S4]")
	p("ADD R4, R3, R3")
	for i := 0; i < rows; i++ {
		xv := neon.V(28 + i%4)
		p("VLD1R.P 4(R8), [V%d.S4]", xv)
		for v := 0; v < 4; v++ {
			p("%s", neon.FMLA(neon.V(4*i+v), neon.V(24+v), xv))
		}
	}
	p("SUBS $1, R0, R0")
	p("BNE %s_loop", name)
	label(name + "_store")
	for i := 0; i < rows; i++ {
		p("VST1 [V%d.S4, V%d.S4, V%d.S4, V%d.S4], (R6)", 4*i, 4*i+1, 4*i+2, 4*i+3)
		if i < rows-1 {
			p("ADD R7, R6, R6")
		}
	}
	p("RET")
}

// weightGrad writes weightGradNEON: C[t][0:8] += Σ_positions x[position + tap t] · G[position][0:8]
// for 8 taps over rows×rowLen positions, image rows xRowStride bytes apart, G's positions
// gStride bytes apart. The taps' pointers are R8–R15; accumulators V(2t+v), G in V16–V17, the
// broadcast inputs V18–V25.
func weightGrad() {
	name := "weightGradNEON"
	text(name, "(offs *int, x, grad unsafe.Pointer, rows, rowLen, xRowStride int, c *float32, ldc, gStride int)", 72)
	p("MOVD offs+0(FP), R0")
	p("MOVD x+8(FP), R1")
	for t := 0; t < 8; t++ {
		p("MOVD %d(R0), R%d", 8*t, 8+t)
		p("ADD R1, R%d, R%d", 8+t, 8+t)
	}
	p("MOVD grad+16(FP), R2")
	p("MOVD rows+24(FP), R3")
	p("MOVD rowLen+32(FP), R4")
	p("MOVD xRowStride+40(FP), R5")
	p("SUB R4<<2, R5, R5") // from a row's end to the next row's start
	p("MOVD gStride+64(FP), R6")
	for a := 0; a < 16; a++ {
		p("VEOR V%d.B16, V%d.B16, V%d.B16", a, a, a)
	}
	p("CBZ R3, %s_store", name)
	p("CBZ R4, %s_store", name)
	label(name + "_row")
	p("MOVD R4, R7")
	label(name + "_loop")
	p("VLD1 (R2), [V16.S4, V17.S4]")
	p("ADD R6, R2, R2")
	for t := 0; t < 8; t++ {
		p("VLD1R.P 4(R%d), [V%d.S4]", 8+t, 18+t)
	}
	for t := 0; t < 8; t++ {
		for v := 0; v < 2; v++ {
			p("%s", neon.FMLA(neon.V(2*t+v), neon.V(16+v), neon.V(18+t)))
		}
	}
	p("SUBS $1, R7, R7")
	p("BNE %s_loop", name)
	for t := 0; t < 8; t++ {
		p("ADD R5, R%d, R%d", 8+t, 8+t)
	}
	p("SUBS $1, R3, R3")
	p("BNE %s_row", name)
	label(name + "_store")
	p("MOVD c+48(FP), R0")
	p("MOVD ldc+56(FP), R1")
	p("LSL $2, R1, R1")
	for t := 0; t < 8; t++ {
		p("VLD1 (R0), [V16.S4, V17.S4]")
		for v := 0; v < 2; v++ {
			p("%s", neon.FADD(neon.V(2*t+v), neon.V(16+v), neon.V(2*t+v)))
		}
		p("VST1 [V%d.S4, V%d.S4], (R0)", 2*t, 2*t+1)
		if t < 7 {
			p("ADD R1, R0, R0")
		}
	}
	p("RET")
}

// winoInput writes the input transform Bᵀ·d·B of 16 tiles of one channel, as kernels_amd64.s's:
// 16 planes (ξ = 4a+b), planeStride bytes apart, each 16 tiles long; src is the tiles' top-left
// pixel in the padded image, rows rowStride bytes apart. Four tiles at a time: VLD2 splits a
// row's even and odd columns.
func winoInput() {
	name := "winoInput"
	text(name, "(dst *float32, planeStride int, src *float32, rowStride int)", 32)
	p("MOVD dst+0(FP), R0")
	p("MOVD planeStride+8(FP), R1")
	p("MOVD src+16(FP), R2")
	p("MOVD rowStride+24(FP), R3")
	p("MOVD $4, R4")
	label(name + "_group")
	p("MOVD R2, R5")
	for i := 0; i < 4; i++ {
		// Row i: E, O (columns 2k, 2k+1) in V16, V17; E1, O1 (columns 2k+2, 2k+3) in V18, V19.
		p("ADD $8, R5, R6")
		p("VLD2 (R5), [V16.S4, V17.S4]")
		p("VLD2 (R6), [V18.S4, V19.S4]")
		w := neon.V(4 * i)
		p("%s", neon.FSUB(w, neon.V16, neon.V18))   // E - E1
		p("%s", neon.FADD(w+1, neon.V17, neon.V18)) // O + E1
		p("%s", neon.FSUB(w+2, neon.V18, neon.V17)) // E1 - O
		p("%s", neon.FSUB(w+3, neon.V17, neon.V19)) // O - O1
		if i < 3 {
			p("ADD R3, R5, R5")
		}
	}
	p("MOVD R0, R7")
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			w := func(i int) neon.V { return neon.V(4*i + b) }
			switch a {
			case 0:
				p("%s", neon.FSUB(neon.V24, w(0), w(2)))
			case 1:
				p("%s", neon.FADD(neon.V24, w(1), w(2)))
			case 2:
				p("%s", neon.FSUB(neon.V24, w(2), w(1)))
			case 3:
				p("%s", neon.FSUB(neon.V24, w(1), w(3)))
			}
			p("VST1 [V24.S4], (R7)")
			p("ADD R1, R7, R7")
		}
	}
	p("ADD $16, R0, R0")
	p("ADD $32, R2, R2")
	p("SUBS $1, R4, R4")
	p("BNE %s_group", name)
	p("RET")
}

// winoOutput writes the output transform Aᵀ·m·A + bias of a row of tiles for 16 filters,
// channels last, as kernels_amd64.s's, four filters at a time: tile t's 16 planes start at
// m + t·mTile (planes mPlane bytes apart) and its 2×2 outputs go to y + t·2·yCol, rows yRow
// bytes apart. bias points at 16 values or is nil (then zeros are added, as on amd64).
func winoOutput() {
	name := "winoOutput"
	text(name, "(y *float32, yRow, yCol int, m *float32, mPlane, mTile, tiles int, bias *float32)", 64)
	p("MOVD y+0(FP), R0")
	p("MOVD yRow+8(FP), R1")
	p("MOVD yCol+16(FP), R2")
	p("MOVD m+24(FP), R3")
	p("MOVD mPlane+32(FP), R4")
	p("MOVD mTile+40(FP), R5")
	p("MOVD bias+56(FP), R6")
	p("ADD R1, R2, R10") // yRow + yCol
	p("MOVD $4, R11")
	label(name + "_group")
	p("VEOR V29.B16, V29.B16, V29.B16")
	p("CBZ R6, %s_nobias", name)
	p("VLD1.P 16(R6), [V29.S4]")
	label(name + "_nobias")
	p("MOVD tiles+48(FP), R7")
	p("MOVD R3, R8")
	p("MOVD R0, R9")
	label(name + "_loop")
	p("MOVD R8, R12")
	for xi := 0; xi < 16; xi++ {
		p("VLD1 (R12), [V%d.S4]", xi)
		if xi < 15 {
			p("ADD R4, R12, R12")
		}
	}
	m := func(a, b int) neon.V { return neon.V(4*a + b) }
	for b := 0; b < 4; b++ {
		// s0b = m0b + m1b + m2b in V(16+b); s1b = m1b - m2b - m3b in V(20+b).
		s0, s1 := neon.V(16+b), neon.V(20+b)
		p("%s", neon.FADD(s0, m(0, b), m(1, b)))
		p("%s", neon.FADD(s0, s0, m(2, b)))
		p("%s", neon.FSUB(s1, m(1, b), m(2, b)))
		p("%s", neon.FSUB(s1, s1, m(3, b)))
	}
	for i := 0; i < 2; i++ {
		s := neon.V(16 + 4*i)
		p("%s", neon.FADD(neon.V24, s, s+1))        // s0 + s1
		p("%s", neon.FADD(neon.V24, neon.V24, s+2)) // + s2
		p("%s", neon.FADD(neon.V24, neon.V24, 29))  // + bias
		p("%s", neon.FSUB(neon.V25, s+1, s+2))      // s1 - s2
		p("%s", neon.FSUB(neon.V25, neon.V25, s+3)) // - s3
		p("%s", neon.FADD(neon.V25, neon.V25, 29))  // + bias
		if i == 0 {
			p("VST1 [V24.S4], (R9)")
			p("ADD R2, R9, R12")
		} else {
			p("ADD R1, R9, R12")
			p("VST1 [V24.S4], (R12)")
			p("ADD R10, R9, R12")
		}
		p("VST1 [V25.S4], (R12)")
	}
	p("ADD R5, R8, R8")
	p("ADD R2<<1, R9, R9")
	p("SUBS $1, R7, R7")
	p("BNE %s_loop", name)
	p("ADD $16, R0, R0")
	p("ADD $16, R3, R3")
	p("SUBS $1, R11, R11")
	p("BNE %s_group", name)
	p("RET")
}

// winoGrad writes the transform A·g·Aᵀ of the output gradient of a row of tiles for 16 filters,
// channels last, as kernels_amd64.s's, four filters at a time: tile t's 2×2 values are at
// g + t·2·gCol, rows gRow bytes apart, and its 16 planes go to dst + t·dTile, planes dPlane
// bytes apart. A negation is 0 − g, as on amd64 (−g would turn +0 into −0).
func winoGrad() {
	name := "winoGrad"
	text(name, "(dst *float32, dPlane, dTile int, gy *float32, gRow, gCol, tiles int)", 56)
	p("MOVD dst+0(FP), R0")
	p("MOVD dPlane+8(FP), R1")
	p("MOVD dTile+16(FP), R2")
	p("MOVD gy+24(FP), R3")
	p("MOVD gRow+32(FP), R4")
	p("MOVD gCol+40(FP), R5")
	p("ADD R4, R5, R6") // gRow + gCol
	p("VEOR V28.B16, V28.B16, V28.B16")
	p("MOVD $4, R11")
	label(name + "_group")
	p("MOVD tiles+48(FP), R7")
	p("MOVD R0, R8")
	p("MOVD R3, R9")
	label(name + "_loop")
	p("VLD1 (R9), [V16.S4]")
	p("ADD R5, R9, R12")
	p("VLD1 (R12), [V17.S4]")
	p("ADD R4, R9, R12")
	p("VLD1 (R12), [V18.S4]")
	p("ADD R6, R9, R12")
	p("VLD1 (R12), [V19.S4]")
	// Row i's h_i0..h_i3 = g_i0, g_i0+g_i1, g_i0-g_i1, 0-g_i1 in V(4i)..V(4i+3).
	for i := 0; i < 2; i++ {
		g0, g1, h := neon.V(16+2*i), neon.V(17+2*i), neon.V(4*i)
		p("VMOV V%d.B16, V%d.B16", g0, h)
		p("%s", neon.FADD(h+1, g0, g1))
		p("%s", neon.FSUB(h+2, g0, g1))
		p("%s", neon.FSUB(h+3, neon.V28, g1))
	}
	p("MOVD R8, R12")
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			h0, h1 := neon.V(b), neon.V(4+b)
			switch a {
			case 0:
				p("VST1 [V%d.S4], (R12)", h0)
			case 1:
				p("%s", neon.FADD(neon.V24, h0, h1))
				p("VST1 [V24.S4], (R12)")
			case 2:
				p("%s", neon.FSUB(neon.V24, h0, h1))
				p("VST1 [V24.S4], (R12)")
			case 3:
				p("%s", neon.FSUB(neon.V24, neon.V28, h1))
				p("VST1 [V24.S4], (R12)")
			}
			if a < 3 || b < 3 {
				p("ADD R1, R12, R12")
			}
		}
	}
	p("ADD R2, R8, R8")
	p("ADD R5<<1, R9, R9")
	p("SUBS $1, R7, R7")
	p("BNE %s_loop", name)
	p("ADD $16, R0, R0")
	p("ADD $16, R3, R3")
	p("SUBS $1, R11, R11")
	p("BNE %s_group", name)
	p("RET")
}

func main() {
	out.WriteString("// Code generated by gen_neon.go; DO NOT EDIT.\n\n//go:build arm64 && !purego\n\n#include \"textflag.h\"\n")
	for rows := 1; rows <= maxForwardRows; rows++ {
		forward(rows)
	}
	weightGrad()
	winoInput()
	winoOutput()
	winoGrad()
	planarKernels()
	write("kernels_arm64.s", out.Bytes())
	head := "// Code generated by gen_neon.go; DO NOT EDIT.\n\n//go:build arm64 && !purego\n\npackage direct\n\nimport \"unsafe\"\n"
	write("kernels_arm64_decl.go", append([]byte(head), decls.Bytes()...))
}

func write(name string, b []byte) {
	if err := os.WriteFile(name, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
