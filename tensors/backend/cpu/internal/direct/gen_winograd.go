//go:build ignore

package main

import "fmt"

// The Winograd F(2×2, 3×3) input transform works on 16 tiles side by side, a tile per vector
// lane: lane k of a vector is tile tx0+k of a row of tiles, and the columns of an image row are
// split into even and odd ones with VPERMT2PS (tables winoEvens, winoOdds). The output and
// output-gradient transforms work channels last, 16 filters to a vector.

func table(name string, f func(k int) int) {
	for k := 0; k < 16; k++ {
		fmt.Fprintf(&out, "DATA ·%s+%d(SB)/4, $%d\n", name, 4*k, f(k))
	}
	fmt.Fprintf(&out, "GLOBL ·%s(SB), RODATA|NOPTR, $64\n", name)
}

func winogradTables() {
	out.WriteString("\n")
	table("winoEvens", func(k int) int { return 2 * k })
	table("winoOdds", func(k int) int { return 2*k + 1 })
}

// split writes the even and odd columns of the 32 floats at disp(reg) into ze and zo.
func split(disp int, reg string, ze, zo int) {
	p("VMOVUPS %d(%s), Z%d", disp, reg, ze)
	p("VMOVUPS %d(%s), Z24", disp+64, reg)
	p("VMOVAPS Z%d, Z%d", ze, zo)
	p("VPERMT2PS Z24, Z30, Z%d", ze)
	p("VPERMT2PS Z24, Z31, Z%d", zo)
}

// winoInput writes the input transform Bᵀ·d·B of 16 tiles of one channel: 16 planes (ξ =
// 4a+b), planeStride bytes apart, each 16 tiles long. src is the tiles' top-left pixel in the
// padded image; rows rowStride bytes apart.
func winoInput() {
	name := "winoInput"
	fmt.Fprintf(&out, "\n// %s: Bᵀ·d·B of 16 tiles.\n", name)
	fmt.Fprintf(&out, "// func %s(dst *float32, planeStride int, src *float32, rowStride int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-32\n", name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ planeStride+8(FP), DX")
	p("MOVQ src+16(FP), SI")
	p("MOVQ rowStride+24(FP), CX")
	p("VMOVUPS ·winoEvens(SB), Z30")
	p("VMOVUPS ·winoOdds(SB), Z31")
	for i := 0; i < 4; i++ {
		// Row i: E, O (columns 2k, 2k+1) in Z16, Z17; E1, O1 (columns 2k+2, 2k+3) in Z18, Z19.
		split(0, "SI", 16, 17)
		split(8, "SI", 18, 19)
		w := 4 * i
		p("VSUBPS Z18, Z16, Z%d", w)   // E - E1
		p("VADDPS Z18, Z17, Z%d", w+1) // O + E1
		p("VSUBPS Z17, Z18, Z%d", w+2) // E1 - O
		p("VSUBPS Z19, Z17, Z%d", w+3) // O - O1
		if i < 3 {
			p("ADDQ CX, SI")
		}
	}
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			w := func(i int) int { return 4*i + b }
			switch a {
			case 0:
				p("VSUBPS Z%d, Z%d, Z24", w(2), w(0))
			case 1:
				p("VADDPS Z%d, Z%d, Z24", w(2), w(1))
			case 2:
				p("VSUBPS Z%d, Z%d, Z24", w(1), w(2))
			case 3:
				p("VSUBPS Z%d, Z%d, Z24", w(3), w(1))
			}
			p("VMOVUPS Z24, (DI)")
			p("ADDQ DX, DI")
		}
	}
	p("VZEROUPPER")
	p("RET")
}

// winoOutput writes the output transform Aᵀ·m·A + bias of a row of tiles, for 16 filters, channels
// last: tile t's 16 planes start at m + t·mTile (planes mPlane bytes apart) and its 2×2
// outputs go to y + t·2·yCol, rows yRow bytes apart. bias points at 16 values or is nil.
func winoOutput() {
	name := "winoOutput"
	fmt.Fprintf(&out, "\n// %s: Aᵀ·m·A + bias of a row of tiles, 16 filters.\n", name)
	fmt.Fprintf(&out, "// func %s(y *float32, yRow, yCol int, m *float32, mPlane, mTile, tiles int, bias *float32)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-64\n", name)
	p("MOVQ y+0(FP), DI")
	p("MOVQ yRow+8(FP), R10")
	p("MOVQ yCol+16(FP), R9")
	p("LEAQ (R9)(R10*1), R11")
	p("MOVQ m+24(FP), SI")
	p("MOVQ mPlane+32(FP), DX")
	p("MOVQ mTile+40(FP), R12")
	p("MOVQ tiles+48(FP), CX")
	p("MOVQ bias+56(FP), AX")
	p("VPXORD Z29, Z29, Z29")
	p("TESTQ AX, AX")
	p("JEQ %s_loop", name)
	p("VMOVUPS (AX), Z29")
	p("PCALIGN $32") // loops start on a fetch boundary, whatever is linked before them
	label(name + "_loop")
	p("MOVQ SI, R8")
	for xi := 0; xi < 16; xi++ {
		p("VMOVUPS (R8), Z%d", xi)
		if xi < 15 {
			p("ADDQ DX, R8")
		}
	}
	m := func(a, b int) int { return 4*a + b }
	for b := 0; b < 4; b++ {
		// s0b = m0b + m1b + m2b in Z(16+b); s1b = m1b - m2b - m3b in Z(20+b).
		p("VADDPS Z%d, Z%d, Z%d", m(1, b), m(0, b), 16+b)
		p("VADDPS Z%d, Z%d, Z%d", m(2, b), 16+b, 16+b)
		p("VSUBPS Z%d, Z%d, Z%d", m(2, b), m(1, b), 20+b)
		p("VSUBPS Z%d, Z%d, Z%d", m(3, b), 20+b, 20+b)
	}
	for i := 0; i < 2; i++ {
		s := 16 + 4*i
		p("VADDPS Z%d, Z%d, Z24", s+1, s)   // s0 + s1
		p("VADDPS Z%d, Z24, Z24", s+2)      // + s2
		p("VADDPS Z29, Z24, Z24")           // + bias
		p("VSUBPS Z%d, Z%d, Z25", s+2, s+1) // s1 - s2
		p("VSUBPS Z%d, Z25, Z25", s+3)      // - s3
		p("VADDPS Z29, Z25, Z25")           // + bias
		if i == 0 {
			p("VMOVUPS Z24, (DI)")
			p("VMOVUPS Z25, (DI)(R9*1)")
		} else {
			p("VMOVUPS Z24, (DI)(R10*1)")
			p("VMOVUPS Z25, (DI)(R11*1)")
		}
	}
	p("ADDQ R12, SI")
	p("LEAQ (DI)(R9*2), DI")
	p("DECQ CX")
	p("JNE %s_loop", name)
	p("VZEROUPPER")
	p("RET")
}

// winoGrad writes the transform A·g·Aᵀ of the output gradient of a row of tiles, for 16
// filters, channels last: tile t's 2×2 values are at g + t·2·gCol, rows gRow bytes apart, and
// its 16 planes go to dst + t·dTile, planes dPlane bytes apart.
func winoGrad() {
	name := "winoGrad"
	fmt.Fprintf(&out, "\n// %s: A·g·Aᵀ of a row of tiles, 16 filters.\n", name)
	fmt.Fprintf(&out, "// func %s(dst *float32, dPlane, dTile int, gy *float32, gRow, gCol, tiles int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-56\n", name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ dPlane+8(FP), DX")
	p("MOVQ dTile+16(FP), R12")
	p("MOVQ gy+24(FP), SI")
	p("MOVQ gRow+32(FP), R10")
	p("MOVQ gCol+40(FP), R9")
	p("LEAQ (R9)(R10*1), R11")
	p("MOVQ tiles+48(FP), CX")
	p("VPXORD Z28, Z28, Z28")
	p("PCALIGN $32") // loops start on a fetch boundary, whatever is linked before them
	label(name + "_loop")
	p("VMOVUPS (SI), Z16")
	p("VMOVUPS (SI)(R9*1), Z17")
	p("VMOVUPS (SI)(R10*1), Z18")
	p("VMOVUPS (SI)(R11*1), Z19")
	// Row i's h_i0..h_i3 = g_i0, g_i0+g_i1, g_i0-g_i1, -g_i1 in Z(4i)..Z(4i+3).
	for i := 0; i < 2; i++ {
		g0, g1, h := 16+2*i, 17+2*i, 4*i
		p("VMOVAPS Z%d, Z%d", g0, h)
		p("VADDPS Z%d, Z%d, Z%d", g1, g0, h+1)
		p("VSUBPS Z%d, Z%d, Z%d", g1, g0, h+2)
		p("VSUBPS Z%d, Z28, Z%d", g1, h+3)
	}
	p("MOVQ DI, R8")
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			switch a {
			case 0:
				p("VMOVUPS Z%d, (R8)", b)
			case 1:
				p("VADDPS Z%d, Z%d, Z24", 4+b, b)
				p("VMOVUPS Z24, (R8)")
			case 2:
				p("VSUBPS Z%d, Z%d, Z24", 4+b, b)
				p("VMOVUPS Z24, (R8)")
			case 3:
				p("VSUBPS Z%d, Z28, Z24", 4+b)
				p("VMOVUPS Z24, (R8)")
			}
			if a < 3 || b < 3 {
				p("ADDQ DX, R8")
			}
		}
	}
	p("ADDQ R12, DI")
	p("LEAQ (SI)(R9*2), SI")
	p("DECQ CX")
	p("JNE %s_loop", name)
	p("VZEROUPPER")
	p("RET")
}
