//go:build ignore

// gen_kernels writes kernels_amd64.s, the fully unrolled micro-kernels.
// Run with `go generate ./tensors/backend/cpu/internal/gemm/`.
//
// Every kernel computes an MR×NR tile acc = Ã·B̃ from packed panels and then
// stores C = alpha·acc + beta·C, not reading C when beta is 0 (so NaNs in C
// do not leak through). VDPBF16PS is emitted as raw EVEX bytes because Go's
// assembler does not know the instruction.
package main

import (
	"bytes"
	"fmt"
	"os"
)

var out bytes.Buffer

func p(format string, args ...any) { fmt.Fprintf(&out, "\t"+format+"\n", args...) }
func label(l string)               { fmt.Fprintf(&out, "%s:\n", l) }

func header(name, doc string) {
	fmt.Fprintf(&out, "\n// %s\n", doc)
	fmt.Fprintf(&out, "// func %s(kc int, a, b unsafe.Pointer, c *float32, ldc int, alpha, beta float32)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-48\n", name)
	p("MOVQ kc+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ b+16(FP), BX")
	p("MOVQ c+24(FP), DI")
	p("MOVQ ldc+32(FP), DX")
	p("SHLQ $2, DX")
}

// vdpbf16psBcst encodes VDPBF16PS zmm(dst) += zmm(src1) · m32bcst[AX+disp].
func vdpbf16psBcst(dst, src1, disp int) string {
	inv := func(b int) int { return (^b) & 1 }
	p0 := inv(dst>>3)<<7 | 1<<6 | 1<<5 | inv(dst>>4)<<4 | 0b10 // X̄=1, B̄=1 (base AX), map 0F38
	p1 := ((^src1)&0xF)<<3 | 1<<2 | 0b10                       // W0, vvvv, pp=F3
	p2 := 0b10<<5 | 1<<4 | inv(src1>>4)<<3                     // L'L=512, b=1 (broadcast)
	modrm := 0b01<<6 | (dst&7)<<3 | 0                          // mod=01 disp8, rm=AX
	if disp%4 != 0 || disp/4 > 127 {
		panic("disp")
	}
	return fmt.Sprintf("BYTE $0x62; BYTE $0x%02x; BYTE $0x%02x; BYTE $0x%02x; BYTE $0x52; BYTE $0x%02x; BYTE $0x%02x // VDPBF16PS.BCST %d(AX), Z%d, Z%d",
		p0, p1, p2, modrm, disp/4, disp, src1, dst)
}

// avx512 writes a rows×(16·nv) kernel over 12-row A panels (rows ≤ 12: the short ones finish
// a C whose last row tile is partial, with no scratch tile and no wasted rows); bf16 selects
// VDPBF16PS on k-pairs instead of FMA. Accumulators are Z0..Z23 (row r, vector v in
// Z(nv·r+v)); B is loaded into Z24, Z25.
func avx512(name string, bf16 bool, nv, rows int) {
	const panel = 12 // rows of a packed A panel
	mr := rows
	nr := 16 * nv
	doc := fmt.Sprintf("%d×%d fp32 tile with AVX-512 FMA; a holds kc×12 floats, b kc×%d.", rows, nr, nr)
	if bf16 {
		doc = fmt.Sprintf("%d×%d tile with AVX512_BF16 VDPBF16PS; kc counts k-pairs, a holds kc×12 pairs, b kc×%d pairs.", rows, nr, nr)
	}
	header(name, doc)
	// Start fetching the C tile now: on large C it comes from L3 or memory,
	// and the k loop (~1µs at kc = 256) hides that latency from the stores.
	p("MOVQ DI, R10")
	for r := 0; r < mr; r++ {
		for v := 0; v < nv; v++ {
			p("PREFETCHT0 %d(R10)", 64*v)
		}
		p("ADDQ DX, R10")
	}
	for r := 0; r < nv*mr; r++ {
		p("VPXORD Z%d, Z%d, Z%d", r, r, r)
	}
	step := func(u int) {
		for v := 0; v < nv; v++ {
			p("VMOVUPS %d(BX), Z%d", u*nr*4+64*v, 24+v)
		}
		for r := 0; r < mr; r++ {
			off := u*panel*4 + r*4
			for v := 0; v < nv; v++ {
				if bf16 {
					p("%s", vdpbf16psBcst(nv*r+v, 24+v, off))
				} else {
					p("VFMADD231PS.BCST %d(AX), Z%d, Z%d", off, 24+v, nv*r+v)
				}
			}
		}
	}
	const unroll = 4
	p("MOVQ CX, R8")
	p("SHRQ $2, R8")
	p("JEQ %s_tail", name)
	p("PCALIGN $32") // loops start on a fetch boundary, whatever is linked before them
	label(name + "_loop4")
	p("PREFETCHT0 %d(BX)", 4*nr*4*4)
	for u := 0; u < unroll; u++ {
		step(u)
	}
	p("ADDQ $%d, AX", unroll*panel*4)
	p("ADDQ $%d, BX", unroll*nr*4)
	p("DECQ R8")
	p("JNE %s_loop4", name)
	label(name + "_tail")
	p("ANDQ $3, CX")
	p("JEQ %s_store", name)
	p("PCALIGN $32")
	label(name + "_loop1")
	step(0)
	p("ADDQ $%d, AX", panel*4)
	p("ADDQ $%d, BX", nr*4)
	p("DECQ CX")
	p("JNE %s_loop1", name)
	label(name + "_store")
	p("VBROADCASTSS alpha+40(FP), Z24")
	p("VBROADCASTSS beta+44(FP), Z25")
	p("MOVL beta+44(FP), R9")
	p("ANDL $0x7fffffff, R9")
	p("JEQ %s_beta0", name)
	for r := 0; r < mr; r++ {
		for v := 0; v < nv; v++ {
			p("VMULPS Z24, Z%d, Z%d", nv*r+v, nv*r+v)
			p("VFMADD231PS %d(DI), Z25, Z%d", 64*v, nv*r+v)
			p("VMOVUPS Z%d, %d(DI)", nv*r+v, 64*v)
		}
		p("ADDQ DX, DI")
	}
	p("VZEROUPPER")
	p("RET")
	label(name + "_beta0")
	for r := 0; r < mr; r++ {
		for v := 0; v < nv; v++ {
			p("VMULPS Z24, Z%d, Z%d", nv*r+v, nv*r+v)
			p("VMOVUPS Z%d, %d(DI)", nv*r+v, 64*v)
		}
		p("ADDQ DX, DI")
	}
	p("VZEROUPPER")
	p("RET")
}

// avx512Strided writes a rows×(16·nv) fp32 kernel that reads its operands in place, at any
// stride: B is k-major (step p's nr floats at b + p·ldb: a packed panel when ldb = nr, or the
// rows of an untransposed B), and A either k-major too (step p's rows at a + p·lda: a packed
// panel when lda = 12, or the columns of a transposed A) or row-major (rowMajorA: row r's k
// values contiguous at a + r·lda, an untransposed A). Strides are in elements. Accumulators and
// the C update are avx512's.
func avx512Strided(name string, nv, rows int, rowMajorA bool) {
	nr := 16 * nv
	mode := "k-major"
	if rowMajorA {
		mode = "row-major"
	}
	fmt.Fprintf(&out, "\n// %d×%d fp32 tile with AVX-512 FMA; a is %s with stride lda, b k-major with stride ldb (in elements).\n", rows, nr, mode)
	fmt.Fprintf(&out, "// func %s(kc int, a unsafe.Pointer, lda int, b unsafe.Pointer, ldb int, c *float32, ldc int, alpha, beta float32)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-64\n", name)
	p("MOVQ kc+0(FP), CX")
	p("MOVQ a+8(FP), AX")
	p("MOVQ lda+16(FP), R11")
	p("SHLQ $2, R11")
	p("MOVQ b+24(FP), BX")
	p("MOVQ ldb+32(FP), R12")
	p("SHLQ $2, R12")
	p("LEAQ (R12)(R12*2), R10") // 3 B steps
	p("MOVQ c+40(FP), DI")
	p("MOVQ ldc+48(FP), DX")
	p("SHLQ $2, DX")
	// A's row bases: row-major A keeps rows 3g..3g+2 at bases[g] + {0, 1, 2}·lda.
	bases := []string{"AX", "SI", "R8", "R9"}
	if rowMajorA {
		for g := 1; g < (rows+2)/3; g++ {
			p("LEAQ (%s)(R11*2), %s", bases[g-1], bases[g])
			p("ADDQ R11, %s", bases[g])
		}
	} else {
		p("LEAQ (R11)(R11*2), R13") // 3 A steps
	}
	// Start fetching the C tile, through the register the k loop later counts with.
	pf := "R9"
	if rowMajorA {
		pf = "R13"
	}
	p("MOVQ DI, %s", pf)
	for r := 0; r < rows; r++ {
		for v := 0; v < nv; v++ {
			p("PREFETCHT0 %d(%s)", 64*v, pf)
		}
		p("ADDQ DX, %s", pf)
	}
	for r := 0; r < nv*rows; r++ {
		p("VPXORD Z%d, Z%d, Z%d", r, r, r)
	}
	bStep := []string{"(BX)", "(BX)(R12*1)", "(BX)(R12*2)", "(BX)(R10*1)"}
	aStep := []string{"(AX)", "(AX)(R11*1)", "(AX)(R11*2)", "(AX)(R13*1)"}
	rowIdx := []string{"", "(R11*1)", "(R11*2)"}
	step := func(u int) {
		for v := 0; v < nv; v++ {
			p("VMOVUPS %d%s, Z%d", 64*v, bStep[u], 24+v)
		}
		for r := 0; r < rows; r++ {
			var addr string
			if rowMajorA {
				addr = fmt.Sprintf("%d(%s)%s", 4*u, bases[r/3], rowIdx[r%3])
			} else {
				addr = fmt.Sprintf("%d%s", 4*r, aStep[u])
			}
			for v := 0; v < nv; v++ {
				p("VFMADD231PS.BCST %s, Z%d, Z%d", addr, 24+v, nv*r+v)
			}
		}
	}
	advance := func(steps int) {
		if steps == 4 {
			p("LEAQ (BX)(R12*4), BX")
		} else {
			p("ADDQ R12, BX")
		}
		if rowMajorA {
			for g := 0; g < (rows+2)/3; g++ {
				p("ADDQ $%d, %s", 4*steps, bases[g])
			}
		} else if steps == 4 {
			p("LEAQ (AX)(R11*4), AX")
		} else {
			p("ADDQ R11, AX")
		}
	}
	counter := "R13"
	if !rowMajorA {
		counter = "R9"
	}
	p("MOVQ CX, %s", counter)
	p("SHRQ $2, %s", counter)
	p("JEQ %s_tail", name)
	p("PCALIGN $32")
	label(name + "_loop4")
	for u := 0; u < 4; u++ {
		step(u)
	}
	advance(4)
	p("DECQ %s", counter)
	p("JNE %s_loop4", name)
	label(name + "_tail")
	p("ANDQ $3, CX")
	p("JEQ %s_store", name)
	p("PCALIGN $32")
	label(name + "_loop1")
	step(0)
	advance(1)
	p("DECQ CX")
	p("JNE %s_loop1", name)
	label(name + "_store")
	p("VBROADCASTSS alpha+56(FP), Z24")
	p("VBROADCASTSS beta+60(FP), Z25")
	p("MOVL beta+60(FP), R9")
	p("ANDL $0x7fffffff, R9")
	p("JEQ %s_beta0", name)
	for r := 0; r < rows; r++ {
		for v := 0; v < nv; v++ {
			p("VMULPS Z24, Z%d, Z%d", nv*r+v, nv*r+v)
			p("VFMADD231PS %d(DI), Z25, Z%d", 64*v, nv*r+v)
			p("VMOVUPS Z%d, %d(DI)", nv*r+v, 64*v)
		}
		p("ADDQ DX, DI")
	}
	p("VZEROUPPER")
	p("RET")
	label(name + "_beta0")
	for r := 0; r < rows; r++ {
		for v := 0; v < nv; v++ {
			p("VMULPS Z24, Z%d, Z%d", nv*r+v, nv*r+v)
			p("VMOVUPS Z%d, %d(DI)", nv*r+v, 64*v)
		}
		p("ADDQ DX, DI")
	}
	p("VZEROUPPER")
	p("RET")
}

// avx2 writes a 6×16 fp32 kernel with AVX2 and FMA3.
func avx2(name string) {
	const mr = 6
	header(name, "6×16 fp32 tile with AVX2+FMA; a holds kc×6 floats, b kc×16.")
	for r := 0; r < 2*mr; r++ {
		p("VXORPS Y%d, Y%d, Y%d", r, r, r)
	}
	step := func(u int) {
		p("VMOVUPS %d(BX), Y12", u*64)
		p("VMOVUPS %d(BX), Y13", u*64+32)
		for r := 0; r < mr; r++ {
			p("VBROADCASTSS %d(AX), Y14", u*mr*4+r*4)
			p("VFMADD231PS Y12, Y14, Y%d", 2*r)
			p("VFMADD231PS Y13, Y14, Y%d", 2*r+1)
		}
	}
	p("MOVQ CX, R8")
	p("SHRQ $2, R8")
	p("JEQ %s_tail", name)
	p("PCALIGN $32") // loops start on a fetch boundary, whatever is linked before them
	label(name + "_loop4")
	for u := 0; u < 4; u++ {
		step(u)
	}
	p("ADDQ $%d, AX", 4*mr*4)
	p("ADDQ $%d, BX", 4*64)
	p("DECQ R8")
	p("JNE %s_loop4", name)
	label(name + "_tail")
	p("ANDQ $3, CX")
	p("JEQ %s_store", name)
	p("PCALIGN $32")
	label(name + "_loop1")
	step(0)
	p("ADDQ $%d, AX", mr*4)
	p("ADDQ $64, BX")
	p("DECQ CX")
	p("JNE %s_loop1", name)
	label(name + "_store")
	p("VBROADCASTSS alpha+40(FP), Y12")
	p("VBROADCASTSS beta+44(FP), Y13")
	p("MOVL beta+44(FP), R9")
	p("ANDL $0x7fffffff, R9")
	p("JEQ %s_beta0", name)
	for r := 0; r < mr; r++ {
		p("VMULPS Y12, Y%d, Y%d", 2*r, 2*r)
		p("VMULPS Y12, Y%d, Y%d", 2*r+1, 2*r+1)
		p("VFMADD231PS (DI), Y13, Y%d", 2*r)
		p("VFMADD231PS 32(DI), Y13, Y%d", 2*r+1)
		p("VMOVUPS Y%d, (DI)", 2*r)
		p("VMOVUPS Y%d, 32(DI)", 2*r+1)
		p("ADDQ DX, DI")
	}
	p("VZEROUPPER")
	p("RET")
	label(name + "_beta0")
	for r := 0; r < mr; r++ {
		p("VMULPS Y12, Y%d, Y%d", 2*r, 2*r)
		p("VMULPS Y12, Y%d, Y%d", 2*r+1, 2*r+1)
		p("VMOVUPS Y%d, (DI)", 2*r)
		p("VMOVUPS Y%d, 32(DI)", 2*r+1)
		p("ADDQ DX, DI")
	}
	p("VZEROUPPER")
	p("RET")
}

// transposeStart writes the header of a block transpose
// func name(dst *float32, dstStride int, src *float32, srcStride int, blocks int) and loads its
// arguments: DI dst, SI src, strides in bytes in R9 (dst) and R8 (src), CX blocks, R10 three
// src rows, R13 three dst rows, R12 dst row 4, AX eight dst rows.
func transposeStart(name, doc string) {
	fmt.Fprintf(&out, "\n// %s\n", doc)
	fmt.Fprintf(&out, "// func %s(dst *float32, dstStride int, src *float32, srcStride int, blocks int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-40\n", name)
	p("MOVQ dst+0(FP), DI")
	p("MOVQ dstStride+8(FP), R9")
	p("MOVQ src+16(FP), SI")
	p("MOVQ srcStride+24(FP), R8")
	p("MOVQ blocks+32(FP), CX")
	p("SHLQ $2, R8")
	p("SHLQ $2, R9")
	p("LEAQ (R8)(R8*2), R10") // 3 src rows
	p("LEAQ (R9)(R9*2), R13") // 3 dst rows
	p("LEAQ (DI)(R9*4), R12") // dst row 4
	p("MOVQ R9, AX")
	p("SHLQ $3, AX") // 8 dst rows
}

// transpose8 writes an AVX 8×8 block transpose over a strip of blocks:
// dst[(8b+c)*dstStride + r] = src[r*srcStride + 8b + c] for r, c < 8.
func transpose8() {
	transposeStart("transpose8x8", "transposes blocks 8×8 blocks of an 8-row strip; strides in elements.")
	p("LEAQ (SI)(R8*4), R11") // src row 4
	p("TESTQ CX, CX")
	p("JEQ t8_done")
	label("t8_loop")
	// Y(r) = [row r | row r+4] columns 0-3 and Y(4+r) the same for columns 4-7:
	// the 128-bit inserts do the cross-lane half of the transpose for free.
	rowAddr := []string{"(SI)", "(SI)(R8*1)", "(SI)(R8*2)", "(SI)(R10*1)"}
	hiAddr := []string{"(R11)", "(R11)(R8*1)", "(R11)(R8*2)", "(R11)(R10*1)"}
	for r := 0; r < 4; r++ {
		p("VMOVUPS %s, X%d", rowAddr[r], r)
		p("VINSERTF128 $1, %s, Y%d, Y%d", hiAddr[r], r, r)
		p("VMOVUPS 16%s, X%d", rowAddr[r], 4+r)
		p("VINSERTF128 $1, 16%s, Y%d, Y%d", hiAddr[r], 4+r, 4+r)
	}
	for h := 0; h < 2; h++ { // columns 4h..4h+3
		x, t := 4*h, 8+4*h
		p("VUNPCKLPS Y%d, Y%d, Y%d", x+1, x, t)
		p("VUNPCKHPS Y%d, Y%d, Y%d", x+1, x, t+1)
		p("VUNPCKLPS Y%d, Y%d, Y%d", x+3, x+2, t+2)
		p("VUNPCKHPS Y%d, Y%d, Y%d", x+3, x+2, t+3)
		p("VSHUFPS $0x44, Y%d, Y%d, Y%d", t+2, t, x)
		p("VSHUFPS $0xEE, Y%d, Y%d, Y%d", t+2, t, x+1)
		p("VSHUFPS $0x44, Y%d, Y%d, Y%d", t+3, t+1, x+2)
		p("VSHUFPS $0xEE, Y%d, Y%d, Y%d", t+3, t+1, x+3)
	}
	p("VMOVUPS Y0, (DI)")
	p("VMOVUPS Y1, (DI)(R9*1)")
	p("VMOVUPS Y2, (DI)(R9*2)")
	p("VMOVUPS Y3, (DI)(R13*1)")
	p("VMOVUPS Y4, (R12)")
	p("VMOVUPS Y5, (R12)(R9*1)")
	p("VMOVUPS Y6, (R12)(R9*2)")
	p("VMOVUPS Y7, (R12)(R13*1)")
	p("ADDQ $32, SI")
	p("ADDQ $32, R11")
	p("ADDQ AX, DI")
	p("ADDQ AX, R12")
	p("DECQ CX")
	p("JNE t8_loop")
	label("t8_done")
	p("VZEROUPPER")
	p("RET")
}

// zip16 writes the bf16 row zip: dst[c] = r0[c] | r1[c]<<16 for 16·n16 columns.
func zip16() {
	fmt.Fprintf(&out, "\n// zips two bf16 rows into (k, k+1) pairs, 16 columns per step.\n")
	fmt.Fprintf(&out, "// func zipRows16(dst *uint32, r0, r1 *uint16, n16 int)\n")
	fmt.Fprintf(&out, "TEXT ·zipRows16(SB), NOSPLIT, $0-32\n")
	p("MOVQ dst+0(FP), DI")
	p("MOVQ r0+8(FP), SI")
	p("MOVQ r1+16(FP), DX")
	p("MOVQ n16+24(FP), CX")
	p("TESTQ CX, CX")
	p("JEQ zip_done")
	label("zip_loop")
	p("VMOVDQU (SI), Y0")
	p("VMOVDQU (DX), Y1")
	p("VPUNPCKLWD Y1, Y0, Y2") // columns 0-3 | 8-11
	p("VPUNPCKHWD Y1, Y0, Y3") // columns 4-7 | 12-15
	p("VPERM2I128 $0x20, Y3, Y2, Y4")
	p("VPERM2I128 $0x31, Y3, Y2, Y5")
	p("VMOVDQU Y4, (DI)")
	p("VMOVDQU Y5, 32(DI)")
	p("ADDQ $32, SI")
	p("ADDQ $32, DX")
	p("ADDQ $64, DI")
	p("DECQ CX")
	p("JNE zip_loop")
	label("zip_done")
	p("VZEROUPPER")
	p("RET")
}

// transpose4 writes an AVX 4×8 block transpose over a strip of blocks:
// dst[(8b+c)*dstStride + r] = src[r*srcStride + 8b + c] for r < 4, c < 8.
func transpose4() {
	transposeStart("transpose4x8", "transposes blocks 4×8 blocks of a 4-row strip; strides in elements.")
	p("TESTQ CX, CX")
	p("JEQ t4_done")
	label("t4_loop")
	p("VMOVUPS (SI), Y0")
	p("VMOVUPS (SI)(R8*1), Y1")
	p("VMOVUPS (SI)(R8*2), Y2")
	p("VMOVUPS (SI)(R10*1), Y3")
	p("VUNPCKLPS Y1, Y0, Y4") // r0[0] r1[0] r0[1] r1[1] | r0[4] …
	p("VUNPCKHPS Y1, Y0, Y5") // r0[2] r1[2] r0[3] r1[3] | r0[6] …
	p("VUNPCKLPS Y3, Y2, Y6")
	p("VUNPCKHPS Y3, Y2, Y7")
	p("VSHUFPS $0x44, Y6, Y4, Y0") // column 0 | column 4
	p("VSHUFPS $0xEE, Y6, Y4, Y1") // column 1 | column 5
	p("VSHUFPS $0x44, Y7, Y5, Y2") // column 2 | column 6
	p("VSHUFPS $0xEE, Y7, Y5, Y3") // column 3 | column 7
	p("VMOVUPS X0, (DI)")
	p("VMOVUPS X1, (DI)(R9*1)")
	p("VMOVUPS X2, (DI)(R9*2)")
	p("VMOVUPS X3, (DI)(R13*1)")
	p("VEXTRACTF128 $1, Y0, (R12)")
	p("VEXTRACTF128 $1, Y1, (R12)(R9*1)")
	p("VEXTRACTF128 $1, Y2, (R12)(R9*2)")
	p("VEXTRACTF128 $1, Y3, (R12)(R13*1)")
	p("ADDQ $32, SI")
	p("ADDQ AX, DI")
	p("ADDQ AX, R12")
	p("DECQ CX")
	p("JNE t4_loop")
	label("t4_done")
	p("VZEROUPPER")
	p("RET")
}

// copyRows8 writes the row copy that packs untransposed panels: rows runs of 8·width8
// floats, srcStride apart in src, one after another in dst.
func copyRows8() {
	fmt.Fprintf(&out, "\n// copies rows of 8·width8 floats (srcStride apart) to consecutive rows of dst.\n")
	fmt.Fprintf(&out, "// func copyRows8(dst, src *float32, srcStride, rows, width8 int)\n")
	fmt.Fprintf(&out, "TEXT ·copyRows8(SB), NOSPLIT, $0-40\n")
	p("MOVQ dst+0(FP), DI")
	p("MOVQ src+8(FP), SI")
	p("MOVQ srcStride+16(FP), R8")
	p("MOVQ rows+24(FP), CX")
	p("MOVQ width8+32(FP), DX")
	p("SHLQ $2, R8")
	p("TESTQ CX, CX")
	p("JEQ copy_done")
	p("TESTQ DX, DX")
	p("JEQ copy_done")
	label("copy_row")
	p("MOVQ SI, R10")
	p("MOVQ DX, R11")
	label("copy_col")
	p("VMOVUPS (R10), Y0")
	p("VMOVUPS Y0, (DI)")
	p("ADDQ $32, R10")
	p("ADDQ $32, DI")
	p("DECQ R11")
	p("JNE copy_col")
	p("ADDQ R8, SI")
	p("DECQ CX")
	p("JNE copy_row")
	label("copy_done")
	p("VZEROUPPER")
	p("RET")
}

func main() {
	out.WriteString("// Code generated by gen_kernels.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	avx512("sgemmKernelAVX512", false, 2, 12)
	avx512("sbgemmKernelAVX512", true, 2, 12)
	avx512("sgemmKernelAVX512x16", false, 1, 12)
	avx512("sbgemmKernelAVX512x16", true, 1, 12)
	for _, rows := range []int{4, 8} {
		avx512(fmt.Sprintf("sgemmKernelAVX512r%d", rows), false, 2, rows)
		avx512(fmt.Sprintf("sgemmKernelAVX512x16r%d", rows), false, 1, rows)
	}
	for _, rows := range []int{12, 8, 4} {
		for _, nv := range []int{2, 1} {
			avx512Strided(fmt.Sprintf("sgemmKernelK%dx%d", rows, 16*nv), nv, rows, false)
			avx512Strided(fmt.Sprintf("sgemmKernelR%dx%d", rows, 16*nv), nv, rows, true)
		}
	}
	avx2("sgemmKernelAVX2")
	transpose8()
	zip16()
	transpose4()
	copyRows8()
	if err := os.WriteFile("kernels_amd64.s", out.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
