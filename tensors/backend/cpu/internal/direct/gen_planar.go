//go:build ignore

package main

import (
	"bytes"
	"fmt"
)

// The planar kernels compute 3×3 convolutions in NCHW, 16 consecutive positions of an output
// row to a vector: the forward kernel writes the output planes and the weight-gradient kernel
// reads the output gradient's planes as they are, so neither transposes an image to channels
// last. A row's last positions (rowLen mod 16) are a masked vector (K1); masked loads read
// nothing past the row's end, so an image's last row ends where its buffer may.
//
// A tap (dy, dx) of a position is at x + dy·xRow + 4·dx bytes from the position's input: the
// three rows are the index register R13 (xRow) at scales 0, 1 and 2, the columns displacements.

// maxPlanarFilters is how many filters one forward kernel computes: 16 accumulators and the
// nine taps' vectors take 25 registers.
const maxPlanarFilters = 16

// maxPlanarGradFilters is how many filters one weight-gradient kernel sums for: 27
// accumulators, the filters' gradient vectors and a tap's vector take 31 registers.
const maxPlanarGradFilters = 3

// tapAddr is tap k's address for the input pointer reg.
func tapAddr(k int, reg string) string {
	dy, dx := k/3, k%3
	switch dy {
	case 0:
		return fmt.Sprintf("%d(%s)", 4*dx, reg)
	case 1:
		return fmt.Sprintf("%d(%s)(R13*1)", 4*dx, reg)
	}
	return fmt.Sprintf("%d(%s)(R13*2)", 4*dx, reg)
}

// tailMask sets K1 to the lanes of a row's masked last vector, rowLen mod 16 (rowLen the
// frame argument named so; CX and AX are clobbered).
func tailMask(rowLen string) {
	p("MOVQ %s, CX", rowLen)
	p("ANDQ $15, CX")
	p("MOVL $1, AX")
	p("SHLL CX, AX")
	p("DECL AX")
	p("KMOVW AX, K1")
}

// rowLoop writes a row's vectors (the full ones, then the masked tail), then the step to the
// next row: x by R13, the output or gradient row at R9 by rowLen floats, AX rows counting down.
// CX holds rowLen and BX the vector's byte offset in the row when vector(masked) is called.
func rowLoop(name, rowLen string, vector func(masked bool)) {
	p("CMPQ CX, $16")
	p("JLT %s_tail", name)
	label(name + "_loop")
	vector(false)
	p("ADDQ $64, BX")
	p("SUBQ $16, CX")
	p("CMPQ CX, $16")
	p("JGE %s_loop", name)
	label(name + "_tail")
	p("TESTQ CX, CX")
	p("JEQ %s_next", name)
	vector(true)
	label(name + "_next")
	p("ADDQ R13, R8")
	p("MOVQ %s, CX", rowLen)
	p("LEAQ (R9)(CX*4), R9")
	p("DECQ AX")
	p("JNE %s_row", name)
}

// planarForward writes the kernel of nf filters: for each position of rows rows of rowLen,
// y[f] = bias[f] + Σ_c Σ_k w[c][k][f] · x_c[position + tap k]. w is the plan's panel,
// [channels][9][16] floats; x's channels are xPlane bytes apart, y's filters yPlane.
func planarForward(nf int) {
	name := fmt.Sprintf("planarForward%d", nf)
	fmt.Fprintf(&out, "\n// %s: 16 positions × %d filters at a time, in NCHW.\n", name, nf)
	fmt.Fprintf(&out, "// func %s(x unsafe.Pointer, xRow, xPlane, channels int, w, bias, y *float32, yPlane, rows, rowLen int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-80\n", name)
	p("MOVQ x+0(FP), R8")
	p("MOVQ xRow+8(FP), R13")
	p("MOVQ xPlane+16(FP), R11")
	p("MOVQ w+32(FP), R15")
	p("MOVQ bias+40(FP), R10")
	p("MOVQ y+48(FP), R9")
	p("MOVQ yPlane+56(FP), R12")
	tailMask("rowLen+72(FP)")
	p("MOVQ rows+64(FP), AX")
	label(name + "_row")
	p("XORQ BX, BX") // the byte offset of the vector in the row
	p("MOVQ rowLen+72(FP), CX")
	vector := func(masked bool) {
		tag := "" // the channel loop's label, one per vector kind
		if masked {
			tag = "_masked"
		}
		for f := 0; f < nf; f++ {
			p("VBROADCASTSS %d(R10), Z%d", 4*f, f)
		}
		p("LEAQ (R8)(BX*1), SI")
		p("MOVQ R15, DI")
		p("MOVQ channels+24(FP), DX")
		label(name + "_chan" + tag)
		for k := 0; k < 9; k++ {
			if masked {
				p("VMOVUPS.Z %s, K1, Z%d", tapAddr(k, "SI"), 16+k)
			} else {
				p("VMOVUPS %s, Z%d", tapAddr(k, "SI"), 16+k)
			}
		}
		for k := 0; k < 9; k++ {
			for f := 0; f < nf; f++ {
				p("VFMADD231PS.BCST %d(DI), Z%d, Z%d", 4*(16*k+f), 16+k, f)
			}
		}
		p("ADDQ R11, SI")
		p("ADDQ $%d, DI", 4*16*9)
		p("DECQ DX")
		p("JNE %s_chan%s", name, tag)
		p("LEAQ (R9)(BX*1), DI")
		for f := 0; f < nf; f++ {
			if masked {
				p("VMOVUPS Z%d, K1, (DI)", f)
			} else {
				p("VMOVUPS Z%d, (DI)", f)
			}
			if f < nf-1 {
				p("ADDQ R12, DI")
			}
		}
	}
	rowLoop(name, "rowLen+72(FP)", vector)
	p("VZEROUPPER")
	p("RET")
}

// planarWeightGrad writes the kernel that sums, for nf filters and the 9 taps of one input
// channel, Σ_position gy[f][position] · x[position + tap k] over rows rows of rowLen positions,
// and stores the nf·9 sums at sums[9f + k]. The filters' gradient planes are gyPlane bytes apart.
func planarWeightGrad(nf int) {
	name := fmt.Sprintf("planarWeightGrad%d", nf)
	fmt.Fprintf(&out, "\n// %s: %d filters × 9 taps, summed over an image's positions in NCHW.\n", name, nf)
	fmt.Fprintf(&out, "// func %s(x unsafe.Pointer, xRow int, gy unsafe.Pointer, gyPlane, rows, rowLen int, sums *float32)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-56\n", name)
	p("MOVQ x+0(FP), R8")
	p("MOVQ xRow+8(FP), R13")
	p("MOVQ gy+16(FP), R9")
	p("MOVQ gyPlane+24(FP), R10")
	tailMask("rowLen+40(FP)")
	for i := 0; i < 9*nf; i++ {
		p("VPXORD Z%d, Z%d, Z%d", i, i, i)
	}
	p("MOVQ rows+32(FP), AX")
	label(name + "_row")
	p("XORQ BX, BX")
	p("MOVQ rowLen+40(FP), CX")
	vector := func(masked bool) {
		// G: filter f's vector at R9 + f·gyPlane.
		p("LEAQ (R9)(BX*1), DI")
		for f := 0; f < nf; f++ {
			if masked {
				p("VMOVUPS.Z (DI), K1, Z%d", 28+f)
			} else {
				p("VMOVUPS (DI), Z%d", 28+f)
			}
			if f < nf-1 {
				p("ADDQ R10, DI")
			}
		}
		p("LEAQ (R8)(BX*1), SI")
		for k := 0; k < 9; k++ {
			if masked {
				p("VMOVUPS.Z %s, K1, Z31", tapAddr(k, "SI"))
			} else {
				p("VMOVUPS %s, Z31", tapAddr(k, "SI"))
			}
			for f := 0; f < nf; f++ {
				p("VFMADD231PS Z31, Z%d, Z%d", 28+f, 9*f+k)
			}
		}
	}
	rowLoop(name, "rowLen+40(FP)", vector)
	// The lanes of each accumulator, added in a fixed order.
	p("MOVQ sums+48(FP), DI")
	for i := 0; i < 9*nf; i++ {
		p("VEXTRACTF64X4 $1, Z%d, Y31", i)
		p("VADDPS Y31, Y%d, Y%d", i, i)
		p("VEXTRACTF32X4 $1, Y%d, X31", i)
		p("VADDPS X31, X%d, X%d", i, i)
		p("VPERMILPS $0x4E, X%d, X31", i)
		p("VADDPS X31, X%d, X%d", i, i)
		p("VPERMILPS $0xB1, X%d, X31", i)
		p("VADDSS X31, X%d, X%d", i, i)
		p("VMOVSS X%d, %d(DI)", i, 4*i)
	}
	p("VZEROUPPER")
	p("RET")
}

// planarDeclarations is the Go side of the planar kernels.
func planarDeclarations(d *bytes.Buffer) {
	d.WriteString("\n// planarForwardKernels[n-1] computes n filters (planarForward).\nvar planarForwardKernels = [maxPlanarFilters]planarForwardKernel{")
	for n := 1; n <= maxPlanarFilters; n++ {
		if n > 1 {
			d.WriteString(", ")
		}
		fmt.Fprintf(d, "planarForward%d", n)
	}
	d.WriteString("}\n\n// planarWeightGradKernels[n-1] sums for n filters (planarWeightGrad).\nvar planarWeightGradKernels = [maxPlanarGradFilters]planarWeightGradKernel{")
	for n := 1; n <= maxPlanarGradFilters; n++ {
		if n > 1 {
			d.WriteString(", ")
		}
		fmt.Fprintf(d, "planarWeightGrad%d", n)
	}
	d.WriteString("}\n")
	for n := 1; n <= maxPlanarFilters; n++ {
		fmt.Fprintf(d, "\n//go:noescape\nfunc planarForward%d(x unsafe.Pointer, xRow, xPlane, channels int, w, bias, y *float32, yPlane, rows, rowLen int)\n", n)
	}
	for n := 1; n <= maxPlanarGradFilters; n++ {
		fmt.Fprintf(d, "\n//go:noescape\nfunc planarWeightGrad%d(x unsafe.Pointer, xRow int, gy unsafe.Pointer, gyPlane, rows, rowLen int, sums *float32)\n", n)
	}
}

func planarKernels() {
	for n := 1; n <= maxPlanarFilters; n++ {
		planarForward(n)
	}
	for n := 1; n <= maxPlanarGradFilters; n++ {
		planarWeightGrad(n)
	}
}
