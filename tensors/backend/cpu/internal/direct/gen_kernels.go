//go:build ignore

// gen_kernels writes kernels_amd64.s, the AVX-512 micro-kernels of the direct convolution.
// Run with `go generate ./tensors/backend/cpu/internal/direct/` (with gen_winograd.go and
// gen_planar.go).
//
// Both kernels read the padded image in place: the input value of position i for filter tap k
// is at x + 4·i + offs[k] (bytes), so no column matrix is ever written.
package main

import (
	"bytes"
	"fmt"
	"os"
)

var out bytes.Buffer

func p(format string, args ...any) { fmt.Fprintf(&out, "\t"+format+"\n", args...) }
func label(l string)               { fmt.Fprintf(&out, "%s:\n", l) }

// maxRows is the most positions one forward kernel computes: 14 rows of two vectors keep 28
// accumulators, and the filter vectors of two steps take the other four registers.
const maxRows = 14

// forward writes a rows×(16·nv) kernel: C[i][·] = bias + Σ_k x[i + tap k] · B[k][·] for rows
// consecutive positions i, B a panel of kc rows of 16·nv floats. Accumulators are Z(nv·i+v);
// steps alternate B registers Z28.. and Z30.. so the loads of one step overlap the other's FMAs.
func forward(nv, rows int) {
	name := fmt.Sprintf("forward%dx%d", rows, 16*nv)
	fmt.Fprintf(&out, "\n// %s: %d positions × %d filters.\n", name, rows, 16*nv)
	fmt.Fprintf(&out, "// func %s(kc int, x unsafe.Pointer, offs *int, b unsafe.Pointer, bias *float32, c *float32, ldc int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-56\n", name)
	p("MOVQ kc+0(FP), CX")
	p("MOVQ x+8(FP), AX")
	p("MOVQ offs+16(FP), SI")
	p("MOVQ b+24(FP), BX")
	p("MOVQ bias+32(FP), R10")
	p("MOVQ c+40(FP), DI")
	p("MOVQ ldc+48(FP), DX")
	p("SHLQ $2, DX")
	p("TESTQ R10, R10")
	p("JEQ %s_zero", name)
	for v := 0; v < nv; v++ {
		p("VMOVUPS %d(R10), Z%d", 64*v, 28+v)
	}
	p("JMP %s_init", name)
	label(name + "_zero")
	for v := 0; v < nv; v++ {
		p("VPXORD Z%d, Z%d, Z%d", 28+v, 28+v, 28+v)
	}
	label(name + "_init")
	for i := 0; i < rows; i++ {
		for v := 0; v < nv; v++ {
			p("VMOVAPS Z%d, Z%d", 28+v, nv*i+v)
		}
	}
	step := func(u int) {
		off := []string{"R8", "R9"}[u]
		p("MOVQ %d(SI), %s", 8*u, off)
		for v := 0; v < nv; v++ {
			p("VMOVUPS %d(BX), Z%d", (u*nv+v)*64, 28+2*u+v)
		}
		for i := 0; i < rows; i++ {
			for v := 0; v < nv; v++ {
				p("VFMADD231PS.BCST %d(AX)(%s*1), Z%d, Z%d", 4*i, off, 28+2*u+v, nv*i+v)
			}
		}
	}
	p("MOVQ CX, R11")
	p("SHRQ $1, R11")
	p("JEQ %s_tail", name)
	p("PCALIGN $32") // loops start on a fetch boundary, whatever is linked before them
	label(name + "_loop2")
	step(0)
	step(1)
	p("ADDQ $16, SI")
	p("ADDQ $%d, BX", 2*nv*64)
	p("DECQ R11")
	p("JNE %s_loop2", name)
	label(name + "_tail")
	p("ANDQ $1, CX")
	p("JEQ %s_store", name)
	step(0)
	label(name + "_store")
	for i := 0; i < rows; i++ {
		for v := 0; v < nv; v++ {
			p("VMOVUPS Z%d, %d(DI)", nv*i+v, 64*v)
		}
		if i < rows-1 {
			p("ADDQ DX, DI")
		}
	}
	p("VZEROUPPER")
	p("RET")
}

// weightGrad writes the 8×(16·nv) weight-gradient kernel: C[r][·] += Σ_positions
// x[position + tap r] · G[position][·] over rows×rowLen positions, image rows xRowStride bytes
// apart, G dense (16·nv floats per position). The eight taps' image pointers live in R8–R15
// and AX indexes all of them; accumulators are Z(nv·r+v), G is loaded into Z16–Z23.
func weightGrad(nv int) {
	name := fmt.Sprintf("weightGrad8x%d", 16*nv)
	nr := 16 * nv
	fmt.Fprintf(&out, "\n// %s: 8 taps × %d filters, summed over an image's positions.\n", name, nr)
	fmt.Fprintf(&out, "// func %s(offs *int, x, grad unsafe.Pointer, rows, rowLen, xRowStride int, c *float32, ldc int)\n", name)
	fmt.Fprintf(&out, "TEXT ·%s(SB), NOSPLIT, $0-64\n", name)
	p("MOVQ offs+0(FP), SI")
	p("MOVQ x+8(FP), AX")
	for r := 0; r < 8; r++ {
		p("MOVQ %d(SI), R%d", 8*r, 8+r)
		p("ADDQ AX, R%d", 8+r)
	}
	p("MOVQ grad+16(FP), BX")
	p("MOVQ rows+24(FP), DX")
	p("MOVQ xRowStride+40(FP), SI")
	for r := 0; r < 8*nv; r++ {
		p("VPXORD Z%d, Z%d, Z%d", r, r, r)
	}
	p("XORQ AX, AX")
	step := func(u int) {
		for v := 0; v < nv; v++ {
			p("VMOVUPS %d(BX), Z%d", (u*nv+v)*64, 16+u*nv+v)
		}
		for r := 0; r < 8; r++ {
			for v := 0; v < nv; v++ {
				p("VFMADD231PS.BCST %d(R%d)(AX*1), Z%d, Z%d", 4*u, 8+r, 16+u*nv+v, nv*r+v)
			}
		}
	}
	label(name + "_row")
	p("MOVQ AX, DI")
	p("MOVQ rowLen+32(FP), CX")
	p("CMPQ CX, $4")
	p("JLT %s_tail", name)
	p("PCALIGN $32") // loops start on a fetch boundary, whatever is linked before them
	label(name + "_loop4")
	for u := 0; u < 4; u++ {
		step(u)
	}
	p("ADDQ $16, AX")
	p("ADDQ $%d, BX", 4*nr*4)
	p("SUBQ $4, CX")
	p("CMPQ CX, $4")
	p("JGE %s_loop4", name)
	label(name + "_tail")
	p("TESTQ CX, CX")
	p("JEQ %s_next", name)
	p("PCALIGN $32") // loops start on a fetch boundary, whatever is linked before them
	label(name + "_loop1")
	step(0)
	p("ADDQ $4, AX")
	p("ADDQ $%d, BX", nr*4)
	p("DECQ CX")
	p("JNE %s_loop1", name)
	label(name + "_next")
	p("LEAQ (DI)(SI*1), AX")
	p("DECQ DX")
	p("JNE %s_row", name)
	p("MOVQ c+48(FP), DI")
	p("MOVQ ldc+56(FP), DX")
	p("SHLQ $2, DX")
	for r := 0; r < 8; r++ {
		for v := 0; v < nv; v++ {
			p("VADDPS %d(DI), Z%d, Z%d", 64*v, nv*r+v, nv*r+v)
			p("VMOVUPS Z%d, %d(DI)", nv*r+v, 64*v)
		}
		if r < 7 {
			p("ADDQ DX, DI")
		}
	}
	p("VZEROUPPER")
	p("RET")
}

func main() {
	out.WriteString("// Code generated by gen_kernels.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	for _, nv := range []int{1, 2} {
		for rows := 1; rows <= maxRows; rows++ {
			forward(nv, rows)
		}
		weightGrad(nv)
	}
	winoInput()
	winoOutput()
	winoGrad()
	winogradTables()
	planarKernels()
	write("kernels_amd64.s", out.Bytes())
	write("kernels_amd64.go", declarations())
}

// declarations is the Go side of the kernels: their signatures and the tables the driver
// picks them from.
func declarations() []byte {
	var d bytes.Buffer
	d.WriteString("// Code generated by gen_kernels.go; DO NOT EDIT.\n\n//go:build amd64 && !purego\n\npackage direct\n\n")
	d.WriteString("import (\n\t\"unsafe\"\n\n\t\"golang.org/x/sys/cpu\"\n)\n\n")
	d.WriteString("// available reports whether this CPU runs the kernels (x/sys/cpu also checks that the OS\n// saves the AVX-512 registers; the planar kernels' reductions use AVX-512 VL).\nvar available = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL\n\n")
	d.WriteString("// forwardKernels[nv-1][rows-1] computes rows positions × 16·nv filters.\n")
	d.WriteString("var forwardKernels = [2][maxRows]forwardKernel{\n")
	for _, nv := range []int{1, 2} {
		d.WriteString("\t{")
		for rows := 1; rows <= maxRows; rows++ {
			if rows > 1 {
				d.WriteString(", ")
			}
			fmt.Fprintf(&d, "forward%dx%d", rows, 16*nv)
		}
		d.WriteString("},\n")
	}
	d.WriteString("}\n\n// weightGradKernels[nv-1] sums 8 taps × 16·nv filters.\nvar weightGradKernels = [2]weightGradKernel{weightGrad8x16, weightGrad8x32}\n")
	for _, nv := range []int{1, 2} {
		for rows := 1; rows <= maxRows; rows++ {
			fmt.Fprintf(&d, "\n//go:noescape\nfunc forward%dx%d(kc int, x unsafe.Pointer, offs *int, b unsafe.Pointer, bias *float32, c *float32, ldc int)\n", rows, 16*nv)
		}
		fmt.Fprintf(&d, "\n//go:noescape\nfunc weightGrad8x%d(offs *int, x, grad unsafe.Pointer, rows, rowLen, xRowStride int, c *float32, ldc int)\n", 16*nv)
	}
	d.WriteString("\n//go:noescape\nfunc winoInput(dst *float32, planeStride int, src *float32, rowStride int)\n")
	d.WriteString("\n//go:noescape\nfunc winoOutput(y *float32, yRow, yCol int, m *float32, mPlane, mTile, tiles int, bias *float32)\n")
	d.WriteString("\n//go:noescape\nfunc winoGrad(dst *float32, dPlane, dTile int, gy *float32, gRow, gCol, tiles int)\n")
	planarDeclarations(&d)
	return d.Bytes()
}

func write(name string, b []byte) {
	if err := os.WriteFile(name, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
